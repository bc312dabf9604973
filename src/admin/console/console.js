// The QA console's entry point: health, the scenario switch, snapshots, reset and the admin token,
// and the wiring of the journal, coverage, drift and accounts modules. Plain ES modules, no build step,
// every request same-origin to the mock's admin API.
import { createAccounts } from './accounts.js';
import { api, enc, onUnauthorized, setToken, token } from './api.js';
import { refreshContract } from './contract.js';
import { refreshCoverage } from './coverage.js';
import { refreshDrift } from './drift.js';
import { $, busy, complain, debounce, emptyNote, h, say } from './dom.js';
import { createJournal } from './journal.js';

const SNAPSHOT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

let scenarios = [];
let activeScenario = null;
// A scenario picked in the list but not activated yet: kept across refreshes. Otherwise the list
// shows the active scenario, or nothing, so "Activate" can never switch one on by accident.
let pickedScenario = '';

const accounts = createAccounts({ onChange: () => void refreshHealth().catch(ignore) });

// New journal entries mean the data and the coverage may have changed: refresh them, once per burst.
const afterNewEntries = debounce(() => {
  void Promise.all([refreshCoverageView(), refreshHealth(), accounts.refresh(), refreshDrift()]).catch(ignore);
}, 200);
const journal = createJournal({ onNewEntries: afterNewEntries });

function ignore(error) {
  if (!(error && error.unauthorized)) complain(error);
}

// ---- health ----

async function refreshHealth() {
  const health = await api('GET', '/health');
  $('health-version').textContent = health.version;
  $('health-accounts').textContent = String(health.accounts);
  $('health-links').textContent = String(health.links);
  $('health-scenario').textContent = health.scenario ?? 'none';
  return health;
}

// ---- scenario ----

async function refreshScenarios() {
  const data = await api('GET', '/scenarios');
  scenarios = data.scenarios;
  activeScenario = data.active;
  const select = $('scenario-select');
  select.replaceChildren(
    h('option', { value: '' }, 'Choose a scenario…'),
    ...scenarios.map((scenario) =>
      h('option', { value: scenario.name, title: scenario.description }, `${scenario.name}${scenario.active ? ' (active)' : ''} — ${shorten(scenario.description, 80)}`),
    ),
  );
  if (!scenarios.some((scenario) => scenario.name === pickedScenario)) pickedScenario = '';
  select.value = pickedScenario || (activeScenario ?? '');
  $('scenario-active').textContent = activeScenario ?? 'none';
  $('health-scenario').textContent = activeScenario ?? 'none';
  describeSelected();
}

function describeSelected() {
  const scenario = scenarios.find((candidate) => candidate.name === $('scenario-select').value);
  $('scenario-description').textContent = scenario ? `${scenario.description} (${scenario.rules} rule${scenario.rules === 1 ? '' : 's'}, ${scenario.source})` : '';
  syncScenarioButtons();
}

// Also after busy(), which enables its button again whatever the outcome.
function syncScenarioButtons() {
  $('scenario-activate').disabled = $('scenario-select').value === '';
  $('scenario-off').disabled = activeScenario === null;
}

async function setScenario(name) {
  const { active } = await api('PUT', '/scenario', { name });
  pickedScenario = '';
  await refreshScenarios();
  say(active ? `Scenario ${active} is active for every request.` : 'No scenario is active: the mock answers normally.');
}

$('scenario-select').addEventListener('change', () => {
  pickedScenario = $('scenario-select').value;
  describeSelected();
});
$('scenario-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const name = $('scenario-select').value;
  if (name) void busy($('scenario-activate'), () => setScenario(name)).then(syncScenarioButtons);
});
$('scenario-off').addEventListener('click', (event) => busy(event.currentTarget, () => setScenario(null)).then(syncScenarioButtons));

// ---- coverage ----

async function refreshCoverageView() {
  const documented = await refreshCoverage(accounts.names());
  journal.setOperations([...new Set(documented.map((outcome) => outcome.operationId))]);
}

// ---- contract ----

// --watch may have swapped another contract in: the coverage's operations follow it.
$('contract-reload').addEventListener('click', (event) => busy(event.currentTarget, async () => {
  await Promise.all([refreshContract(), refreshCoverageView()]);
  say('Contract view reloaded.');
}));

// ---- snapshots and reset ----

async function refreshSnapshots() {
  const { snapshots } = await api('GET', '/snapshots');
  emptyNote('snapshots-empty', snapshots.length === 0, 'No snapshots saved.');
  $('snapshots-body').replaceChildren(
    ...snapshots.map((snapshot) =>
      h(
        'tr',
        { dataset: { snapshot: snapshot.name } },
        h('th', { scope: 'row' }, snapshot.name),
        h('td', {}, h('time', { dateTime: snapshot.savedAt, title: snapshot.savedAt }, new Date(snapshot.savedAt).toLocaleString())),
        h('td', { className: 'num' }, String(snapshot.links)),
        h(
          'td',
          { className: 'actions' },
          h('button', { type: 'button', className: 'small', 'aria-label': `Restore snapshot ${snapshot.name}`, onclick: (event) => busy(event.currentTarget, () => restore(snapshot.name)) }, 'Restore'),
          h('button', { type: 'button', className: 'small', 'aria-label': `Delete snapshot ${snapshot.name}`, onclick: (event) => busy(event.currentTarget, () => removeSnapshot(snapshot.name)) }, 'Delete'),
        ),
      ),
    ),
  );
}

async function restore(name) {
  const result = await api('POST', `/snapshots/${enc(name)}/restore`);
  await afterStateReplaced();
  say(`Snapshot ${name} restored: ${result.accounts} accounts, ${result.links} links.`);
}

async function removeSnapshot(name) {
  await api('DELETE', `/snapshots/${enc(name)}`);
  await refreshSnapshots();
  say(`Snapshot ${name} deleted.`);
}

async function afterStateReplaced() {
  await Promise.all([refreshHealth(), accounts.refresh(), refreshSnapshots()]);
}

$('snapshot-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('snapshot-name');
  const name = input.value.trim();
  if (!SNAPSHOT_NAME.test(name)) {
    complain('A snapshot name is 1 to 64 letters, digits, _ or -.');
    input.focus();
    return;
  }
  void busy(event.currentTarget.querySelector('button[type=submit]'), async () => {
    const snapshot = await api('POST', `/snapshots/${enc(name)}`);
    input.value = '';
    await refreshSnapshots();
    say(`Snapshot ${snapshot.name} saved (${snapshot.links} links).`);
  });
});

$('reset').addEventListener('click', (event) => {
  const ok = window.confirm('Reset the mock to its seeded fixtures? Every created, changed or deleted link and every limit change is lost (snapshots, the journal and the scenario are kept).');
  if (!ok) {
    say('Reset cancelled.');
    return;
  }
  void busy(event.currentTarget, async () => {
    const result = await api('POST', '/reset');
    await afterStateReplaced();
    say(`Reset to the seeded fixtures: ${result.accounts} accounts, ${result.links} links.`);
  });
});

// ---- admin token ----

/** Without an accepted token only the token box shows: no panel may look usable beneath it. */
function lock(locked) {
  for (const panel of document.querySelectorAll('main > section.panel:not(#token)')) panel.hidden = locked;
  $('sections').hidden = locked;
  $('health').hidden = locked;
}

// Missing and wrong are told apart: a token was sent only when one is kept.
onUnauthorized((description) => {
  journal.stop();
  lock(true);
  const section = $('token');
  $('token-error').textContent = token() ? `The mock refused this token: ${description}.` : '';
  if (!section.hidden) return;
  section.hidden = false;
  $('token-input').focus();
});

$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const value = $('token-input').value;
  if (!value) return;
  setToken(value);
  void busy(event.currentTarget.querySelector('button[type=submit]'), async () => {
    await loadAll();
    $('token').hidden = true;
    $('token-input').value = '';
    $('token-error').textContent = '';
    say('Admin token accepted.');
  });
});

// ---- start ----

// Coming back to the tab: catch up on what changed meanwhile (a scenario set by a script, say).
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && $('token').hidden) {
    void Promise.all([refreshHealth(), refreshScenarios(), refreshCoverageView(), refreshDrift(), refreshContract()]).catch(ignore);
  }
});

async function loadAll() {
  await refreshHealth();
  lock(false);
  await Promise.all([refreshScenarios(), accounts.refresh(), refreshSnapshots()]);
  await Promise.all([refreshCoverageView(), refreshDrift(), refreshContract()]);
  await journal.start();
}

function shorten(text, max) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

loadAll().catch(ignore);
