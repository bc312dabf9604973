// A start with --reset of more links than a seed kept in memory writes its db file from a worker
// thread, which draws the links again, told the main thread's answers of its slug checks
// (src/process/seed-base.ts, issue 40), which only the built package has
// (dist/src/process/seed-base-worker.js): the file is byte for byte the one the seed writes on the main thread (what the TypeScript sources, which have no worker, do), and a worker
// that fails mid-write leaves no db (neither the file nor its temporary) and one line saying why.
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSeedLinks, DEFAULT_SEED, type SeedDrawing } from '../../fixtures/seed.js';
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import type { LinkRecord } from '../../src/core/model.js';
import { readFixtureSpec } from '../../src/contract/package-files.js';
import { MAX_KEPT_SEED_LINKS, seededAtStart } from '../../src/process/seeded-data.js';
import { baseText } from '../../src/store/file/base-frame.js';
import { LogFileStore } from '../../src/store/file/log-file-store.js';
import { openData } from '../../src/store/file/open-data.js';
import { runCli, startCli } from '../helpers/cli-process.js';

const DIST = new URL('../../dist/', import.meta.url);
const BIG = MAX_KEPT_SEED_LINKS + 1;
const base = readFixtureSpec();
const big: FixtureSpec = { ...base, accounts: base.accounts.map((account, i) => (i === 0 ? { ...account, links: BIG, linkLimit: BIG } : account)) };
const STORE = { durable: true, compactAfterBytes: 1 << 30 };

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function tempDir(): string {
  dir = mkdtempSync(join(tmpdir(), 'slm-seed-base-'));
  writeFileSync(join(dir, 'fixtures.json'), JSON.stringify(big));
  return dir;
}

/** `use` given a new base.json in a temp dir, open for writing, closed after whatever `use` does; the file's path. */
async function withBaseFile(use: (fd: number, file: string) => Promise<void>): Promise<string> {
  const file = join(tempDir(), 'base.json');
  const fd = openSync(file, 'w');
  try {
    await use(fd, file);
  } finally {
    closeSync(fd);
  }
  return file;
}

/** The db the seed writes on this thread (the sources have no worker file), with DEFAULT_SEED. */
async function mainThreadDb(at: string): Promise<Buffer> {
  const file = join(at, 'main-thread.json');
  const store = new LogFileStore(file, STORE);
  await openData(store, (target) => seededAtStart(DEFAULT_SEED, big, target), true);
  await store.close();
  return readFileSync(file);
}

interface BuiltParts {
  LogFileStore: typeof LogFileStore;
  buildSeedState: (seed: number, spec: FixtureSpec, drawing?: SeedDrawing) => object;
  writeBaseInWorker: (target: { fd: number; generation: number }, seed: number, fixtures: FixtureSpec, script?: URL) => { written: Promise<number>; drawing: SeedDrawing; stop(): Promise<void> };
}

async function builtParts(): Promise<BuiltParts> {
  expect(existsSync(new URL('src/process/seed-base-worker.js', DIST)), 'run npm run build first').toBe(true);
  const [store, seed, worker] = await Promise.all(['src/store/file/log-file-store.js', 'fixtures/seed.js', 'src/process/seed-base.js'].map((path) => import(new URL(path, DIST).href)));
  return { ...store, ...seed, ...worker } as BuiltParts;
}

describe('the db file of a large seed at start, written by a worker thread (built package)', () => {
  it('is byte for byte the one the seed writes on the main thread', async () => {
    const at = tempDir();
    const cli = await startCli(['--db', 'db.json', '--fixtures', 'fixtures.json', '--reset', '--durability', 'durable', '--quiet'], at);
    await cli.stop('SIGTERM');
    const written = readFileSync(join(at, 'db.json'));
    expect(written.equals(await mainThreadDb(at)), 'the db files differ').toBe(true);
    expect(readdirSync(at).sort()).toEqual(['db.json', 'fixtures.json', 'main-thread.json']);
  }, 60_000);

  it('is written by the worker: the built seed hands the store the worker’s count of links', async () => {
    const { LogFileStore: BuiltStore } = await builtParts();
    const built = (await import(new URL('src/process/seeded-data.js', DIST).href)) as { seededAtStart: typeof seededAtStart };
    const at = tempDir();
    const store = new BuiltStore(join(at, 'db.json'), STORE);
    let written: Promise<number> | undefined;
    await store.seed(async (target) => {
      const made = await built.seededAtStart(DEFAULT_SEED, big, target);
      written = 'written' in made ? made.written : undefined;
      return made as Awaited<ReturnType<NonNullable<LogFileStore['seed']>>>;
    });
    await store.close();
    expect(await written).toBe(BIG + base.accounts.slice(1).reduce((sum, account) => sum + account.links, 0));
    expect(readFileSync(join(at, 'db.json')).equals(await mainThreadDb(at)), 'the db files differ').toBe(true);
  }, 60_000);

  it('draws the links again, told the answers of this thread\'s slug checks (some taken), and writes their lines in the order it is sent last', async () => {
    const { writeBaseInWorker } = await builtParts();
    let taken = 0;
    let sent: { head: object; drawOrder: Uint32Array } | undefined;
    await withBaseFile(async (fd, file) => {
      const writing = writeBaseInWorker({ fd, generation: 7 }, DEFAULT_SEED, big);
      const { links } = buildSeedLinks(DEFAULT_SEED, big, {
        checked(answer) {
          if (answer) taken += 1;
          writing.drawing.checked(answer);
        },
        ordered(head, drawOrder, lastId) {
          // Not the seed's order: the worker must take the one it is sent.
          const scrambled = drawOrder.slice().reverse();
          [scrambled[0], scrambled[5]] = [scrambled[5]!, scrambled[0]!];
          sent = { head, drawOrder: scrambled };
          writing.drawing.ordered(head, scrambled.slice(), lastId);
        },
      });
      expect(await writing.written).toBe(links.length);
      // The draw's own order, to find each link by the place it was drawn in.
      const drawn: LinkRecord[] = [];
      buildSeedLinks(DEFAULT_SEED, big, { checked: () => undefined, ordered: (_head, drawOrder) => drawOrder.forEach((place, k) => (drawn[place] = links[k]!)) });
      const entries = Array.from(sent!.drawOrder, (i) => [drawn[i]!.id, drawn[i]!] as const);
      expect(readFileSync(file, 'utf8')).toBe(await baseText(sent!.head as never, entries, 7));
    });
    // A replay told nothing but "free" would have drawn other slugs: the answers were needed.
    expect(taken).toBeGreaterThan(0);
  }, 60_000);

  it('fails, and says so, when the answers it is told are not the ones the draw gave: it never writes other links', async () => {
    const { writeBaseInWorker } = await builtParts();
    await withBaseFile(async (fd) => {
      const writing = writeBaseInWorker({ fd, generation: 7 }, DEFAULT_SEED, big);
      let flipped = false;
      buildSeedLinks(DEFAULT_SEED, big, {
        // The first slug found taken told as free: the worker keeps it, and its draw goes another way.
        checked: (taken) => writing.drawing.checked(taken && !flipped ? !(flipped = true) : taken),
        ordered: (head, drawOrder, lastId) => writing.drawing.ordered(head, drawOrder, lastId),
      });
      expect(flipped).toBe(true);
      await expect(writing.written).rejects.toThrow(/^the seed base writer (drew other links than the seed|was sent (the order before|more answers))/);
    });
  }, 60_000);

  it('stops when this thread fails mid-draw, while it waits for answers that will not come', async () => {
    const { writeBaseInWorker } = await builtParts();
    const file = await withBaseFile(async (fd) => {
      const writing = writeBaseInWorker({ fd, generation: 7 }, DEFAULT_SEED, big);
      writing.drawing.checked(false);
      await writing.stop();
      await expect(writing.written).rejects.toThrow(/^the thread writing the seed exited with code \d+ before it was done$/);
    });
    expect(readFileSync(file, 'utf8')).toBe('');
  }, 60_000);

  it('leaves no file when the worker dies mid-write, and says why', async () => {
    const { LogFileStore: BuiltStore, buildSeedState, writeBaseInWorker } = await builtParts();
    const at = tempDir();
    // Half a db, then the thread ends: what a worker killed mid-write leaves.
    const script = join(at, 'dies.mjs');
    writeFileSync(script, "import { writeSync } from 'node:fs';\nimport { workerData } from 'node:worker_threads';\nwriteSync(workerData.fd, '{\"kind\": \"shortlink-mock-db\", \"formatVersion\": 2, \"gene');\nprocess.exit(3);\n");
    const store = new BuiltStore(join(at, 'db.json'), STORE);
    const seeding = store.seed(async (target) => {
      const writing = writeBaseInWorker(target, DEFAULT_SEED, big, pathToFileURL(script));
      return { ...buildSeedState(DEFAULT_SEED, big, writing.drawing), written: writing.written } as never;
    });
    await expect(seeding).rejects.toThrow(/^the thread writing the seed exited with code 3 before it was done$/);
    await store.close();
    expect(readdirSync(at).sort()).toEqual(['dies.mjs', 'fixtures.json']);
  }, 60_000);

  it.skipIf(!existsSync('/dev/full'))('refuses the start in one line, and leaves no file, when the disk is full', async () => {
    const at = tempDir();
    // The store's temporary file, already there as a link to a device that takes no byte (ENOSPC).
    symlinkSync('/dev/full', join(at, 'db.json.replacing'));
    const result = await runCli(['--db', 'db.json', '--fixtures', 'fixtures.json', '--reset', '--port', '0', '--quiet'], at);
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split('\n'), `stderr must be one line: ${JSON.stringify(result.stderr)}`).toHaveLength(1);
    expect(result.stderr).toMatch(/cannot write db .*db\.json: ENOSPC/);
    expect(readdirSync(at).sort()).toEqual(['fixtures.json']);
  }, 60_000);
});
