// The drift report (GET /__admin/violations): what a mock in proxy mode (--proxy) has seen either
// side break the contract, one table per operation and status, one row per distinct violation with
// its count, times and the first exchange as example (a native <details>: no script to open it).
// Refreshed after new journal entries; "Clear" forgets it (DELETE /__admin/violations).
import { api } from './api.js';
import { $, busy, emptyNote, h, say } from './dom.js';

const plural = (count, one, many) => `${count} ${count === 1 ? one : many}`;

function formatBody(value) {
  return value === null || value === undefined ? '(none)' : JSON.stringify(value, null, 2);
}

function groupTitle(group) {
  const where = group.operationId === null ? `${group.method} outside the contract` : `${group.operationId} (${group.method})`;
  return `${where}, ${group.status === null ? 'no answer' : `answered ${group.status}`}`;
}

function when(iso) {
  return h('time', { dateTime: iso, title: iso }, new Date(iso).toLocaleString());
}

function example(violation) {
  const { example: ex } = violation;
  return h(
    'details',
    {},
    h('summary', {}, `${ex.method} ${ex.path}`),
    h('p', {}, `At ${ex.time}, key ${ex.apiKey ?? '(none)'}, answered ${ex.status ?? 'nothing'}.`),
    ex.detail ? h('p', { className: 'detail' }, ex.detail) : null,
    h('div', { className: 'bodies' },
      h('div', {}, h('h4', {}, 'Request body'), h('pre', {}, formatBody(ex.requestBody))),
      h('div', {}, h('h4', {}, 'Response body'), h('pre', {}, formatBody(ex.responseBody))),
    ),
  );
}

function groupTable(group) {
  const title = groupTitle(group);
  return h(
    'table',
    { className: 'drift-group', dataset: { operation: group.operationId ?? '', status: String(group.status ?? '') } },
    h('caption', {}, title),
    h('thead', {}, h('tr', {}, ...['Side', 'Rule', 'Exchanges', 'First seen', 'Last seen', 'Example'].map((name) => h('th', { scope: 'col' }, name)))),
    h(
      'tbody',
      {},
      ...group.violations.map((violation) =>
        h(
          'tr',
          { dataset: { side: violation.side, rule: violation.rule } },
          h('td', {}, violation.side),
          h('td', { className: 'wrap' }, violation.rule),
          h('td', { className: 'num' }, String(violation.count)),
          h('td', {}, when(violation.firstSeen)),
          h('td', {}, when(violation.lastSeen)),
          h('td', {}, example(violation)),
        ),
      ),
    ),
  );
}

export async function refreshDrift() {
  const report = await api('GET', '/violations');
  const none = report.distinct === 0 && report.dropped === 0;
  emptyNote('drift-empty', none, 'No contract violations seen (only a mock started with --proxy sees any).');
  $('drift-summary').textContent = none
    ? ''
    : `${plural(report.distinct, 'distinct violation', 'distinct violations')}${report.dropped ? `; ${plural(report.dropped, 'sighting', 'sightings')} of further ones not kept (the report is full)` : ''}.`;
  $('drift-groups').replaceChildren(...report.groups.map((group) => h('div', { className: 'scroll' }, groupTable(group))));
}

$('drift-clear').addEventListener('click', (event) =>
  busy(event.currentTarget, async () => {
    await api('DELETE', '/violations');
    await refreshDrift();
    say('Drift report cleared.');
  }),
);
