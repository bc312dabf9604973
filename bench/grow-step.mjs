// The one step of the event loop a hash table of N entries costs when it grows (issue 40, the stalls
// of a restore or a reset at 1,000,000 links): V8 grows a dictionary-mode object or a Map by
// allocating a table twice the size and rehashing every entry into it, in one call. A replace builds
// a new data.links (a plain object keyed by id) and new slug Maps of that many entries, a slice per
// turn, but the insert that crosses the last growth (an object at 699,051 entries, a Map at 524,288)
// does all of the rehash in its turn. Measured here alone, in CPU time (load-proof, unlike wall time):
// the worst single insert while one table of N string keys is built, against the same keys spread
// over SHARDS tables (the design that would bound the step: each grows at N / SHARDS).
//   node bench/grow-step.mjs [entries=1000000] [shards=64]
const entries = Number(process.argv[2] ?? 1_000_000);
const shards = Number(process.argv[3] ?? 64);
/** Ids shaped like the mock's (`lnk_` and 16 base-36 characters), all different. */
const ids = Array.from({ length: entries }, (_, i) => `lnk_${((i * 2654435761) % 4294967296).toString(36).padStart(16, 'x')}`);
const value = { id: 'a link' };

/** The worst single insert of `put(i)` over every id: its index, wall ms, and CPU ms when run again up to it. */
function worstInsert(make, put) {
  let table = make();
  let worst = { at: -1, wallMs: 0 };
  for (let i = 0; i < ids.length; i += 1) {
    const started = performance.now();
    put(table, i);
    const ms = performance.now() - started;
    if (ms > worst.wallMs) worst = { at: i, wallMs: ms };
  }
  // The same build again, the CPU time of that one insert alone.
  table = make();
  for (let i = 0; i < worst.at; i += 1) put(table, i);
  const before = process.cpuUsage();
  put(table, worst.at);
  const cpu = process.cpuUsage(before);
  return { ...worst, cpuMs: (cpu.user + cpu.system) / 1000 };
}

const shardOf = (id) => (id.charCodeAt(id.length - 1) * 31 + id.charCodeAt(id.length - 2)) % shards;
const results = {
  object: worstInsert(
    () => ({}),
    (table, i) => void (table[ids[i]] = value),
  ),
  map: worstInsert(
    () => new Map(),
    (table, i) => void table.set(ids[i], value),
  ),
  [`objects x${shards}`]: worstInsert(
    () => Array.from({ length: shards }, () => ({})),
    (tables, i) => void (tables[shardOf(ids[i])][ids[i]] = value),
  ),
  [`maps x${shards}`]: worstInsert(
    () => Array.from({ length: shards }, () => new Map()),
    (tables, i) => void tables[shardOf(ids[i])].set(ids[i], value),
  ),
};
for (const [name, r] of Object.entries(results)) {
  console.log(`${name.padEnd(14)} worst insert at entry ${String(r.at).padStart(8)}: wall ${r.wallMs.toFixed(1)} ms, CPU ${r.cpuMs.toFixed(1)} ms`);
}
