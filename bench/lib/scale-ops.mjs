// The admin operations that touch the whole store, timed with the event loop's longest stall during
// each (bench/lib/eld-preload.mjs), for bench:scale on the file store and bench/stall-ops.mjs:
// a snapshot saved, that snapshot restored, a reset (the fixtures seeded again), and a compaction
// (creates until the change log passes its size and the compaction it starts has finished).
import { existsSync } from 'node:fs';
import autocannon from 'autocannon';
import { autocannonOptions } from './workloads.mjs';
import { request, timed } from './scale-phases.mjs';

const SNAPSHOT = 'bench-scale';
/** The compaction's bound: creates run until it has finished, or this long. */
const COMPACTION_TIMEOUT_MS = 300_000;
const POLL_MS = 20;

/**
 * Each operation's { ms, stallMs }; `db` is the server's db file (the compaction is seen through its
 * `.changes.old`). `compaction: false` skips the last: at 1,000,000 links it waits for ~85 MiB of creates.
 * `compactionOnly`: the compaction alone, on the state as started: after a reset, the full collection
 * that frees the state it replaced (~450 MiB at 1,000,000 links) falls in the compaction's creates, and
 * its stall was counted as the compaction's (bench/replace-stalls.md).
 */
export async function adminOps(server, db, log = () => {}, { compaction = true, compactionOnly = false } = {}) {
  const ops = {};
  if (!compactionOnly) await replacingOps(server, ops, log);
  if (compaction) {
    ops.compaction = await timed(server, () => createsThroughCompaction(server, db));
    log(`compaction after ${ms(ops.compaction.ms)} of creates (stall ${ops.compaction.stallMs} ms, compacted: ${ops.compaction.value})`);
  }
  for (const op of Object.values(ops)) delete op.value;
  return ops;
}

/** A snapshot saved, restored and deleted, then a reset: each timed into `ops`. */
async function replacingOps(server, ops, log) {
  ops.snapshot = await timed(server, () => request(server, 'POST', `/__admin/snapshots/${SNAPSHOT}`, 201));
  log(`snapshot saved in ${ms(ops.snapshot.ms)} (stall ${ops.snapshot.stallMs} ms)`);
  ops.restore = await timed(server, () => request(server, 'POST', `/__admin/snapshots/${SNAPSHOT}/restore`, 200));
  log(`snapshot restored in ${ms(ops.restore.ms)} (stall ${ops.restore.stallMs} ms)`);
  await request(server, 'DELETE', `/__admin/snapshots/${SNAPSHOT}`, 204);
  ops.reset = await timed(server, () => request(server, 'POST', '/__admin/reset', 200));
  log(`reset in ${ms(ops.reset.ms)} (stall ${ops.reset.stallMs} ms)`);
}

/**
 * The create load until a compaction has started (`<db>.changes.old` seen) and finished (gone
 * again); true when it did within COMPACTION_TIMEOUT_MS. The stall includes the creates' own.
 */
async function createsThroughCompaction(server, db) {
  const old = `${db}.changes.old`;
  const load = autocannon(autocannonOptions('create', server.url, COMPACTION_TIMEOUT_MS / 1000));
  const deadline = performance.now() + COMPACTION_TIMEOUT_MS;
  let seen = false;
  let done = false;
  while (!done && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (existsSync(old)) seen = true;
    else done = seen;
  }
  load.stop();
  await load;
  return done;
}

const ms = (value) => (Number.isFinite(value) ? `${Math.round(value)} ms` : '—');
