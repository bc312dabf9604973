import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirst from './test/setup/longest-first.js';

const E2E = 'test/e2e/**/*.test.ts';
const REDIS_INFRA = 'test/setup/redis-infra.test.ts';
const REDIS_STORE = 'test/store/redis-*.test.ts';
// The deploy files' tests render deploy/kubernetes with kubectl, which their set-up finds or installs.
const DEPLOY = 'test/deploy/**/*.test.ts';
// The tests of the API, the admin API, scenarios and the contract, run a second time with every mock
// on Redis (D27: the same answers on every store): createTestApp (test/helpers/test-store.ts) reads
// the store from SHORTLINK_MOCK_TEST_STORE.
// The contract suite checks the mock in process, unless CONTRACT_BASE_URL names a live server: then
// it checks that server, once (a CI job runs `vitest run contract-tests/contract.test.ts`).
const CONTRACT_SUITE = process.env['CONTRACT_BASE_URL'] ? [] : ['contract-tests/**/*.test.ts'];
const ON_EVERY_STORE = ['test/http/**/*.test.ts', 'test/admin/**/*.test.ts', 'test/scenarios/**/*.test.ts', 'test/variety/switches.test.ts', ...CONTRACT_SUITE];
// Measure time and event-loop stalls against bounds: they run last, one file at a time, alone on the
// machine (sequence.groupOrder 1), so that the suite's own parallel files cannot make them fail.
// Not test/contract/scenario-note.test.ts: its bound is on a wait (a probe that gives up after 3 s,
// within 2 s more), which costs no CPU and so needs no core of its own; in the tail, where nothing
// else runs, it kept the machine idle for 3 s of every run.
// One project, so one worker start in the tail, where nothing else runs (~2 s of wall each):
// validation-cost runs its mock-mode tests on both stores itself, and of the big Redis account only
// the timed first page is here (reading all its pages, redis-big-account-pages, has no bound and
// runs among the other files).
const TIMED_REDIS_STORE = ['test/store/redis-big-account.test.ts'];
const TIMED = ['test/http/validation-cost.test.ts', 'test/process/stop-keep-alive.test.ts', ...TIMED_REDIS_STORE];
// Stay on the memory store only, for a reason of their own:
const MEMORY_ONLY = [
  // Floods the journal with 10,000 entries in one tick to overflow a slow client's buffer: the Redis
  // traffic state drops records past 1,000 unanswered ones (recording never waits), so the flood
  // never reaches the stream. The stream's bound is the same code on both stores.
  'test/admin/journal-stream.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Vitest's default on a 2-core machine is one worker (cores - 1): the files ran one after the
    // other while many of them wait on a child process, a socket or a server. Three keep both cores
    // busy. Files share their worker's modules (no isolation): importing the server's modules again
    // for each file was about a second per file (test/core + test/http: 57 s of CPU isolated, 24 s
    // not). No test file changes a global it does not restore (env stubs and fake timers are undone
    // in afterEach).
    maxWorkers: 3,
    isolate: false,
    // The long files first, also on a fresh clone with no durations cached (test/setup/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    // toEqual on MockData.links compares a table's links by key, as it compared the plain object they were (test/setup/link-tables.ts).
    // SHORTLINK_MOCK_CPU_LOG=FILE: a line per test file with its CPU and that of its child processes
    // (test/setup/cpu-log.ts; docs/development.md, "Where the suite's time goes").
    setupFiles: ['test/setup/link-tables.ts', ...(process.env['SHORTLINK_MOCK_CPU_LOG'] ? ['test/setup/cpu-log.ts'] : [])],
    // Two projects so that the e2e set-up (finding or installing Chromium) runs only when an e2e
    // test is among the files to run: Vitest starts a project's globalSetup only then.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'contract-tests/**/*.test.ts'],
          // The reliability suite (minutes of load, crashes and a soak) runs on its own: npm run test:reliability;
          // so do the container tests (Podman, image builds): npm run test:container.
          exclude: [...configDefaults.exclude, 'test/reliability/**', 'test/container/**', E2E, REDIS_INFRA, REDIS_STORE, DEPLOY, ...TIMED],
        },
      },
      {
        extends: true,
        test: {
          name: 'timed',
          include: TIMED,
          // The Redis store's half of validation-cost, and the big account.
          globalSetup: ['test/setup/redis-global-setup.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'deploy',
          include: [DEPLOY],
          // Finds or installs kubectl, for `kubectl kustomize deploy/kubernetes` (inject('kubectl')).
          globalSetup: ['test/setup/kubectl-global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: [E2E],
          globalSetup: ['test/setup/e2e-global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'redis',
          // The Redis store (src/store/redis-*.ts), against the run's shared server and servers of its
          // own, and the Redis test infrastructure itself.
          include: [REDIS_STORE, REDIS_INFRA],
          exclude: [...configDefaults.exclude, ...TIMED_REDIS_STORE],
          // Finds or installs redis-server and starts the run's shared server (inject('redisUrl')).
          globalSetup: ['test/setup/redis-global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-redis',
          include: ON_EVERY_STORE,
          exclude: [...configDefaults.exclude, ...MEMORY_ONLY, ...TIMED],
          env: { SHORTLINK_MOCK_TEST_STORE: 'redis' },
          globalSetup: ['test/setup/redis-global-setup.ts'],
        },
      },
    ],
  },
});
