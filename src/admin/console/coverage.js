// The coverage matrix: rows are the contract's documented outcomes (operation × status × code),
// columns are the API keys the mock has seen, cells say "seen ×N" or "never" (text and mark, not
// colour alone). Refreshed after new journal entries.
import { api } from './api.js';
import { $, h } from './dom.js';

export const outcomeId = (outcome) => `${outcome.operationId} ${outcome.status} ${outcome.code ?? ''}`.trim();

/** Fetches and renders; resolves with the documented outcomes (for the journal's filter). */
export async function refreshCoverage(accountNames = new Map()) {
  const data = await api('GET', '/coverage');
  renderCoverage(data, accountNames);
  return data.documented;
}

function renderCoverage({ documented, accounts }, accountNames) {
  const head = $('coverage-head');
  const body = $('coverage-body');
  $('coverage-empty').hidden = accounts.length > 0;
  const columns = accounts.map((account) => {
    const counts = new Map(account.seen.map((outcome) => [outcomeId(outcome), outcome.count]));
    return { account, counts, key: account.apiKey ?? '(no key)' };
  });
  head.replaceChildren(
    h(
      'tr',
      {},
      h('th', { scope: 'col' }, 'Outcome'),
      ...columns.map(({ account, key, counts }) => {
        const never = documented.length - documented.filter((outcome) => counts.has(outcomeId(outcome))).length;
        const name = account.accountId ? accountNames.get(account.accountId) : undefined;
        return h(
          'th',
          { scope: 'col', dataset: { key } },
          h('span', { className: 'key' }, key),
          name ? h('span', { className: 'muted block' }, name) : null,
          h('span', { className: 'muted block' }, `${never} of ${documented.length} never met`),
        );
      }),
    ),
  );
  body.replaceChildren(
    ...documented.map((outcome) =>
      h(
        'tr',
        { dataset: { outcome: outcomeId(outcome) } },
        h(
          'th',
          { scope: 'row' },
          h('span', { className: 'op' }, outcome.operationId),
          ' ',
          h('span', { className: `status-${String(outcome.status)[0]}xx` }, String(outcome.status)),
          outcome.code ? h('span', { className: 'code' }, ` ${outcome.code}`) : null,
        ),
        ...columns.map(({ key, counts }) => {
          const count = counts.get(outcomeId(outcome));
          return count
            ? h('td', { className: 'cell seen', dataset: { key, outcome: outcomeId(outcome), seen: 'true' } }, h('span', { className: 'mark', 'aria-hidden': 'true' }, '✓ '), `seen ×${count}`)
            : h('td', { className: 'cell never', dataset: { key, outcome: outcomeId(outcome), seen: 'false' } }, h('span', { className: 'mark', 'aria-hidden': 'true' }, '✗ '), 'never');
        }),
      ),
    ),
  );
}
