// Accounts and, for the selected one, its links (slug, short URL, destination, tags, clicks) with a
// "+1 click" button, and its editable link limit.
import { api, enc } from './api.js';
import { $, busy, emptyNote, h, say } from './dom.js';

export function createAccounts({ onChange }) {
  let accounts = [];
  let selectedKey = null;
  // What is on screen, so that a refresh that changes nothing keeps the DOM (and the focus) as is.
  let shownAccounts = '';
  let shownLinks = '';

  async function refresh() {
    const data = await api('GET', '/accounts');
    accounts = data.accounts;
    emptyNote('accounts-empty', accounts.length === 0, 'No accounts.');
    renderAccounts();
    if (selectedKey && !accounts.some((account) => account.apiKey === selectedKey)) selectedKey = null;
    await refreshLinks();
    return accounts;
  }

  function renderAccounts() {
    const signature = JSON.stringify([selectedKey, accounts]);
    if (signature === shownAccounts) return;
    shownAccounts = signature;
    $('accounts-body').replaceChildren(
      ...accounts.map((account) => {
        const selected = account.apiKey === selectedKey;
        return h(
          'tr',
          { dataset: { apiKey: account.apiKey }, className: selected ? 'selected' : '' },
          h('th', { scope: 'row' }, account.name),
          h('td', {}, h('code', {}, account.apiKey)),
          h('td', { className: 'wrap' }, account.domains.map((domain) => domain.name).join(', ')),
          h('td', { dataset: { col: 'count' } }, `${account.links} / ${account.linkLimit.toLocaleString('en')}`),
          h(
            'td',
            {},
            h('button', {
              type: 'button',
              className: 'small',
              'aria-pressed': String(selected),
              'aria-label': `Show links of ${account.name} (${account.apiKey})`,
              onclick: (event) => busy(event.currentTarget, () => select(account.apiKey)),
            }, 'Show links'),
          ),
        );
      }),
    );
  }

  async function select(apiKey) {
    selectedKey = apiKey;
    renderAccounts();
    await refreshLinks();
    $('account-detail').querySelector('h3').focus();
  }

  async function refreshLinks() {
    const detail = $('account-detail');
    const account = accounts.find((candidate) => candidate.apiKey === selectedKey);
    if (!account) {
      detail.hidden = true;
      return;
    }
    const { links } = await api('GET', `/links?account=${enc(account.apiKey)}`);
    detail.hidden = false;
    const title = $('account-title');
    title.tabIndex = -1;
    title.textContent = `Links of ${account.name} (${account.apiKey}): ${links.length}`;
    const limitInput = $('limit-input');
    if (document.activeElement !== limitInput) limitInput.value = String(account.linkLimit);
    $('links-empty').hidden = links.length > 0;
    const signature = JSON.stringify([account.apiKey, links]);
    if (signature === shownLinks) return;
    shownLinks = signature;
    $('links-body').replaceChildren(...links.map(linkRow));
  }

  function linkRow(link) {
    return h(
      'tr',
      { dataset: { linkId: link.id, slug: link.slug } },
      h('th', { scope: 'row', dataset: { col: 'slug' } }, link.slug),
      h('td', { className: 'wrap' }, h('code', {}, link.shortUrl)),
      h('td', { className: 'wrap' }, link.destinationUrl, link.title ? h('span', { className: 'muted block' }, link.title) : null),
      h('td', {}, link.tags.length ? h('ul', { className: 'tags' }, link.tags.map((tag) => h('li', { title: tag.id }, tag.name))) : h('span', { className: 'muted' }, 'none')),
      h('td', { dataset: { col: 'clicks' }, className: 'num' }, String(link.clickCount ?? 0)),
      h(
        'td',
        {},
        h('button', {
          type: 'button',
          className: 'small',
          'aria-label': `+1 click on ${link.slug}`,
          onclick: (event) => {
            const button = event.currentTarget;
            return busy(button, async () => {
              const updated = await api('POST', `/links/${enc(link.id)}/clicks`, { count: 1 });
              const cell = button.closest('tr')?.querySelector('[data-col="clicks"]');
              if (cell) cell.textContent = String(updated.clickCount ?? 0);
              say(`${link.slug}: ${updated.clickCount} ${updated.clickCount === 1 ? 'click' : 'clicks'}.`);
            });
          },
        }, '+1 click'),
      ),
    );
  }

  $('limit-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const linkLimit = Number(form.elements.linkLimit.value);
    const apiKey = selectedKey;
    if (!apiKey || !Number.isInteger(linkLimit) || linkLimit < 0) return;
    void busy(form.querySelector('button[type=submit]'), async () => {
      const account = await api('PUT', `/accounts/${enc(apiKey)}/limit`, { linkLimit });
      say(`${account.name}: link limit ${account.linkLimit.toLocaleString('en')}.`);
      await refresh();
      onChange();
    });
  });

  return {
    refresh,
    refreshLinks,
    /** accountId → name, for the coverage columns. */
    names: () => new Map(accounts.map((account) => [account.id, `${account.name}`])),
  };
}
