// The QA console's entry point: health, the scenario switch, snapshots, reset and the admin token,
// and the wiring of the journal, coverage and accounts modules. Plain ES modules, no build step,
// every request same-origin to the mock's admin API.
import { createAccounts } from './accounts.js';
import { api, enc, onUnauthorized, setToken, token } from './api.js';
import { refreshCoverage } from './coverage.js';
import { $, busy, complain, debounce, h, say } from './dom.js';
import { createJournal } from './journal.js';

const SNAPSHOT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

let scenarios = [];

const accounts = createAccounts({ onChange: () => void refreshHealth().catch(ignore) });

// New journal entries mean the data and the coverage may have changed: refresh them, once per burst.
const afterNewEntries = debounce(() => {
  void Promise.all([refreshCoverageView(), refreshHealth(), accounts.refresh()]).catch(ignore);
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
  const select = $('scenario-select');
  const previous = select.value;
  select.replaceChildren(
    ...scenarios.map((scenario) =>
      h('option', { value: scenario.name, title: scenario.description }, `${scenario.name}${scenario.active ? ' (active)' : ''} — ${shorten(scenario.description, 80)}`),
    ),
  );
  select.value = scenarios.some((scenario) => scenario.name === previous) ? previous : (data.active ?? scenarios[0]?.name ?? '');
  showActive(data.active);
  describeSelected();
}

function showActive(active) {
  $('scenario-active').textContent = active ?? 'none';
  $('health-scenario').textContent = active ?? 'none';
  $('scenario-off').disabled = active === null;
}

function describeSelected() {
  const scenario = scenarios.find((candidate) => candidate.name === $('scenario-select').value);
  $('scenario-description').textContent = scenario ? `${scenario.description} (${scenario.rules} rule${scenario.rules === 1 ? '' : 's'}, ${scenario.source})` : '';
}

async function setScenario(name) {
  const { active } = await api('PUT', '/scenario', { name });
  await refreshScenarios();
  say(active ? `Scenario ${active} is active for every request.` : 'No scenario is active: the mock answers normally.');
}

$('scenario-select').addEventListener('change', describeSelected);
$('scenario-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const name = $('scenario-select').value;
  if (name) void busy($('scenario-activate'), () => setScenario(name));
});
$('scenario-off').addEventListener('click', (event) => busy(event.currentTarget, () => setScenario(null)));

// ---- coverage ----

async function refreshCoverageView() {
  const documented = await refreshCoverage(accounts.names());
  journal.setOperations([...new Set(documented.map((outcome) => outcome.operationId))]);
}

// ---- snapshots and reset ----

async function refreshSnapshots() {
  const { snapshots } = await api('GET', '/snapshots');
  $('snapshots-empty').hidden = snapshots.length > 0;
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

onUnauthorized(() => {
  journal.stop();
  const section = $('token');
  $('token-error').textContent = token() ? 'The mock refused this token.' : '';
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
    say('Admin token accepted.');
  });
});

// ---- start ----

// Coming back to the tab: catch up on what changed meanwhile (a scenario set by a script, say).
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && $('token').hidden) {
    void Promise.all([refreshHealth(), refreshScenarios(), refreshCoverageView()]).catch(ignore);
  }
});

async function loadAll() {
  await refreshHealth();
  await Promise.all([refreshScenarios(), accounts.refresh(), refreshSnapshots()]);
  await refreshCoverageView();
  await journal.start();
}

function shorten(text, max) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

loadAll().catch(ignore);
