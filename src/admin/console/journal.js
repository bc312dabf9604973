// The live journal: the newest 100 API requests, newest first, with their bodies on demand.
//
// How it stays live: the page opens an EventSource on /__admin/requests/stream, and every `entry`
// event (one JournalEntry) is added at the top of the table at once. On every (re)open of the
// stream the list is fetched again (GET /__admin/requests?limit=100) so nothing sent while the
// stream was down is missed; entries are merged by their `seq`, so none is shown twice.
// EventSource cannot send headers, so when an admin token is in use (the stream would answer 401)
// the page falls back to polling GET /__admin/requests every 2 s with the x-admin-token header.
// It falls back the same way if the stream is refused for any other reason.
import { api, query, token } from './api.js';
import { $, busy, emptyNote, h, say } from './dom.js';
import { proxyDetails, upstreamNote, violationList } from './proxied.js';

const MAX_ROWS = 100;
const POLL_MS = 2000;

// The journal is for the API's traffic. The mock means to leave its own routes out, but entries for
// /__admin/... can still reach it (src/http/record-requests.ts tests req.path when the response
// finishes, and inside the /__admin router req.path no longer starts with /__admin). Showing them
// would also make the page refresh itself forever (each refresh is a request, so an entry, so a
// refresh), so the page drops them whatever the server does.
const OWN_ROUTE = /^\/(__admin|docs|openapi\.yaml)(?=[/?#]|$)/;
const isApiEntry = (entry) => !OWN_ROUTE.test(entry.path);

export function createJournal({ onNewEntries }) {
  const body = $('journal-body');
  const live = $('journal-live');
  const mode = $('journal-mode');
  /** Oldest first; at most MAX_ROWS. */
  let entries = [];
  let filter = { operation: '', status: '' };
  let source = null;
  let pollTimer = null;
  let pollGeneration = 0;
  let reloading = null;
  let receivedWhileReloading = [];

  const maxSeq = () => (entries.length ? entries[entries.length - 1].seq : 0);
  const matches = (entry) =>
    isApiEntry(entry) &&
    (!filter.operation || entry.operationId === filter.operation) && (!filter.status || entry.status === Number(filter.status));

  function setMode(text) {
    mode.textContent = text ? `(${text})` : '';
  }

  function renderAll() {
    body.replaceChildren(...entries.slice().reverse().flatMap(rowsOf));
    emptyNote('journal-empty', entries.length === 0, filter.operation || filter.status ? 'No requests match this filter.' : 'No requests yet.');
  }

  /** Adds entries not shown yet (by seq), at the top; trims the oldest. */
  function add(newEntries) {
    const known = maxSeq();
    const fresh = newEntries.filter((entry) => entry.seq > known && matches(entry)).sort((a, b) => a.seq - b.seq);
    if (fresh.length === 0) return;
    entries = entries.concat(fresh);
    for (const entry of fresh) body.prepend(...rowsOf(entry));
    while (entries.length > MAX_ROWS) {
      const dropped = entries.shift();
      body.querySelector(`tr[data-seq="${dropped.seq}"]`)?.remove();
      body.querySelector(`tr[data-details-of="${dropped.seq}"]`)?.remove();
    }
    $('journal-empty').hidden = true;
    const latest = fresh[fresh.length - 1];
    live.textContent = `Latest: ${latest.method} ${latest.path} → ${statusText(latest)}${latest.scenario ? ` (scenario ${latest.scenario})` : ''}`;
    onNewEntries();
  }

  /** Fetches the newest entries for the current filter and shows exactly those (plus any that streamed in meanwhile). */
  function reload() {
    // One fetch at a time; a reload asked for meanwhile (a new filter) runs right after it.
    if (reloading) return reloading.catch(() => {}).then(() => reload());
    receivedWhileReloading = [];
    reloading = (async () => {
      try {
        const data = await api('GET', `/requests${query({ limit: MAX_ROWS, operation: filter.operation, status: filter.status })}`);
        const shownBefore = maxSeq();
        entries = data.entries.filter(matches).slice(-MAX_ROWS);
        renderAll();
        // The fetch may already hold entries that also streamed in meanwhile: then `add` finds
        // nothing new, yet the data behind them changed, so the page must still refresh.
        if (maxSeq() > shownBefore) onNewEntries();
        add(receivedWhileReloading);
      } finally {
        reloading = null;
      }
    })();
    return reloading;
  }

  function onEntry(entry) {
    if (reloading) receivedWhileReloading.push(entry);
    else add([entry]);
  }

  function startStream() {
    const stream = new EventSource('/__admin/requests/stream');
    source = stream;
    stream.addEventListener('open', () => {
      setMode('live');
      void reload().catch(() => {});
    });
    stream.addEventListener('entry', (event) => onEntry(JSON.parse(event.data)));
    // The mock dropped entries while this page fell behind: fetch the list to fill the gap.
    stream.addEventListener('dropped', () => void reload().catch(() => {}));
    stream.addEventListener('error', () => {
      if (stream.readyState === EventSource.CLOSED) {
        // Refused (e.g. 401 once a token is required): poll instead, with the header.
        stream.close();
        if (source === stream) startPolling();
      } else {
        setMode('reconnecting…');
      }
    });
  }

  function startPolling() {
    source = null;
    setMode('polling every 2 s');
    // Each loop has its own generation: a poll still in flight when stop() runs must not schedule
    // another, or a later start() would leave two loops polling.
    const generation = ++pollGeneration;
    const tick = async () => {
      try {
        const data = await api('GET', `/requests${query({ limit: MAX_ROWS, operation: filter.operation, status: filter.status })}`);
        if (generation !== pollGeneration) return; // stopped while this poll was in flight
        const newest = data.entries.length ? data.entries[data.entries.length - 1].seq : 0;
        if (newest < maxSeq()) {
          // The mock was restarted (its seq started over): show its journal as it is.
          entries = data.entries.filter(matches);
          renderAll();
        } else if (!reloading) {
          add(data.entries);
        }
        setMode('polling every 2 s');
      } catch (error) {
        if (generation !== pollGeneration) return;
        setMode(`polling every 2 s — last poll failed: ${error.message}`);
      }
      if (generation === pollGeneration) pollTimer = setTimeout(tick, POLL_MS);
    };
    pollTimer = setTimeout(tick, POLL_MS);
  }

  function stop() {
    pollGeneration++;
    source?.close();
    source = null;
    clearTimeout(pollTimer);
    pollTimer = null;
  }

  /** (Re)starts live updates: the stream when no token is in use, else polling. */
  function start() {
    stop();
    // EventSource cannot send the x-admin-token header: with a token, poll instead.
    if (token()) startPolling();
    else startStream();
    return reload();
  }

  $('journal-filters').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    filter = { operation: form.elements.operation.value, status: form.elements.status.value };
    void busy(form.querySelector('button[type=submit]'), async () => {
      await reload();
      say(`Journal filtered: ${filter.operation || 'any operation'}, ${filter.status ? `status ${filter.status}` : 'any status'}.`);
    });
  });

  $('journal-clear').addEventListener('click', (event) =>
    busy(event.currentTarget, async () => {
      await api('DELETE', '/requests');
      entries = [];
      renderAll();
      live.textContent = '';
      say('Journal cleared.');
    }),
  );

  return {
    start,
    reload,
    stop,
    /** The operations offered in the filter (from the coverage's documented outcomes). */
    setOperations(operationIds) {
      const select = $('journal-operation');
      const current = select.value;
      select.replaceChildren(h('option', { value: '' }, 'any'), ...operationIds.map((id) => h('option', { value: id }, id)));
      select.value = operationIds.includes(current) ? current : '';
    },
  };
}

function statusText(entry) {
  if (entry.status !== null) return String(entry.status);
  return entry.fault ? `no answer (${entry.fault})` : 'no answer';
}

function statusClass(entry) {
  if (entry.status === null) return 'status-fault';
  return `status-${String(entry.status)[0]}xx`;
}

function formatBody(value) {
  if (value === null || value === undefined) return '(none)';
  return JSON.stringify(value, null, 2);
}

/** Under the operation: an answer made from a contract FILE's schema, or the Link fields it made (issue 38); null otherwise. */
function generatedNote(entry) {
  const made = entry.generated ? 'answer generated from the schema' : entry.generatedFields ? `generated: ${entry.generatedFields.join(', ')}` : null;
  return made && h('span', { className: 'muted block generated' }, made);
}

function rowsOf(entry) {
  const detailsId = `journal-details-${entry.seq}`;
  const time = new Date(entry.time);
  const toggle = h('button', { type: 'button', className: 'small', 'aria-expanded': 'false', 'aria-controls': detailsId }, 'Bodies');
  toggle.setAttribute('aria-label', `Show request and response bodies of ${entry.method} ${entry.path} at ${time.toLocaleTimeString()}`);
  const details = h(
    'tr',
    { id: detailsId, className: 'details', hidden: true, dataset: { detailsOf: String(entry.seq) } },
    h(
      'td',
      { colSpan: 9 },
      h('div', { className: 'bodies' },
        h('div', {}, h('h4', {}, 'Request body'), h('pre', {}, formatBody(entry.requestBody))),
        h('div', {}, h('h4', {}, 'Response body'), h('pre', {}, formatBody(entry.responseBody))),
      ),
      proxyDetails(entry),
      entry.durationMs !== undefined ? h('p', { className: 'muted' }, `${entry.durationMs} ms${entry.accountId ? ` · account ${entry.accountId}` : ''}`) : null,
    ),
  );
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    details.hidden = !open;
  });
  const row = h(
    'tr',
    { dataset: { seq: String(entry.seq) } },
    h('td', { dataset: { col: 'time' } }, h('time', { dateTime: entry.time, title: entry.time }, time.toLocaleTimeString())),
    h('td', { dataset: { col: 'method' } }, entry.method),
    h('td', { dataset: { col: 'path' }, className: 'wrap' }, entry.path),
    h('td', { dataset: { col: 'operation' } }, entry.operationId ?? '—', generatedNote(entry)),
    h('td', { dataset: { col: 'status' }, className: statusClass(entry) }, statusText(entry), upstreamNote(entry)),
    h('td', { dataset: { col: 'scenario' } }, entry.scenario ?? '—'),
    h('td', { dataset: { col: 'verdict' }, className: `verdict-${entry.verdict}` }, entry.verdict, violationList(entry)),
    h('td', { dataset: { col: 'key' } }, entry.apiKey ?? '(none)'),
    h('td', {}, toggle),
  );
  return [row, details];
}
