// Prepared stores: seed a db of N links once (the mock with --reset, then SIGTERM), and hand each
// round a fresh copy of it, so every round starts at the same size and pays no seeding.
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFixtures } from './fixtures.mjs';
import { mockCommand, startServer, stopServer } from './processes.mjs';

const SEED_TIMEOUT_MS = 10 * 60_000;

/** Seeds `<tmp>/store-<links>/seed/db.json`; returns {dir, fixtures, seedMs}. */
export async function prepareStore(tmp, links) {
  const dir = join(tmp, `store-${links}`, 'seed');
  mkdirSync(dir, { recursive: true });
  const fixtures = writeFixtures(join(tmp, `store-${links}`), links);
  const server = await startServer(mockCommand({ db: join(dir, 'db.json'), fixtures, reset: true }), { timeoutMs: SEED_TIMEOUT_MS });
  try {
    return { dir, fixtures, links, seedMs: server.listeningMs };
  } finally {
    await stopServer(server);
  }
}

/** A copy of the prepared db files in a new directory; returns {db, remove()}. */
export function copyStore(store, name) {
  const dir = join(store.dir, '..', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  for (const file of readdirSync(store.dir)) if (file.startsWith('db.json')) cpSync(join(store.dir, file), join(dir, file));
  return { db: join(dir, 'db.json'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
