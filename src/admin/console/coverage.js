// The coverage matrix: rows are the contract's documented outcomes (operation × status × code),
// columns are the API keys the mock has seen, cells say "seen ×N" or "never" (text and mark, not
// colour alone). Requests without a key or with a key that names no account come as one entry
// (apiKey null): they are always answered 401, so that column's other cells say "cannot happen"
// instead of a useless "never". Refreshed after new journal entries.
import { api } from './api.js';
import { $, emptyNote, h } from './dom.js';

const UNAUTHENTICATED_STATUS = 401;
/** The column id of the group (a masked key always holds a '*', so it never clashes). */
const GROUP = 'no-valid-key';

export const outcomeId = (outcome) => `${outcome.operationId} ${outcome.status} ${outcome.code ?? ''}`.trim();
const plural = (count, one, many) => `${count} ${count === 1 ? one : many}`;

/** Fetches and renders; resolves with the documented outcomes (for the journal's filter). */
export async function refreshCoverage(accountNames = new Map()) {
  const data = await api('GET', '/coverage');
  renderCoverage(data, accountNames);
  return data.documented;
}

function renderCoverage({ documented, accounts }, accountNames) {
  emptyNote('coverage-empty', accounts.length === 0, 'No API requests yet: nothing is covered.');
  const columns = accounts.map((entry) => ({
    entry,
    key: entry.apiKey ?? GROUP,
    counts: new Map(entry.seen.map((outcome) => [outcomeId(outcome), outcome.count])),
    reachable: (outcome) => entry.apiKey !== null || outcome.status === UNAUTHENTICATED_STATUS,
  }));
  $('coverage-head').replaceChildren(
    h('tr', {}, h('th', { scope: 'col' }, 'Outcome'), ...columns.map((column) => columnHeader(column, documented, accountNames))),
  );
  $('coverage-body').replaceChildren(
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
        ...columns.map((column) => cell(column, outcome)),
      ),
    ),
  );
}

function columnHeader({ entry, key }, documented, accountNames) {
  const reachable = entry.apiKey === null ? documented.filter((outcome) => outcome.status === UNAUTHENTICATED_STATUS).length : documented.length;
  const never = `${entry.missing.length} of ${reachable} never met`;
  if (entry.apiKey === null) {
    const { withoutKey = 0, unknownKey = 0 } = entry.unauthenticated ?? {};
    return h(
      'th',
      { scope: 'col', dataset: { key } },
      'No or unknown key',
      h('span', { className: 'muted block' }, `${plural(withoutKey, 'request', 'requests')} without a key, ${plural(unknownKey, 'request', 'requests')} with an unknown key`),
      h('span', { className: 'muted block' }, never),
    );
  }
  const name = entry.accountId ? accountNames.get(entry.accountId) : undefined;
  return h(
    'th',
    { scope: 'col', dataset: { key } },
    h('span', { className: 'key' }, entry.apiKey),
    name ? h('span', { className: 'muted block' }, name) : null,
    h('span', { className: 'muted block' }, never),
  );
}

function cell({ key, counts, reachable }, outcome) {
  const id = outcomeId(outcome);
  const count = counts.get(id);
  if (count) {
    return h('td', { className: 'cell seen', dataset: { key, outcome: id, seen: 'true' } }, h('span', { className: 'mark', 'aria-hidden': 'true' }, '✓ '), `seen ×${count}`);
  }
  if (!reachable(outcome)) {
    return h(
      'td',
      { className: 'cell na', title: 'A request without a valid key is always answered 401', dataset: { key, outcome: id, seen: 'n/a' } },
      h('span', { 'aria-hidden': 'true' }, '–'),
      h('span', { className: 'visually-hidden' }, 'cannot happen'),
    );
  }
  return h('td', { className: 'cell never', dataset: { key, outcome: id, seen: 'false' } }, h('span', { className: 'mark', 'aria-hidden': 'true' }, '✗ '), 'never');
}
