// Reads what a server started with `--trace-gc` and bench/lib/stall-preload.mjs printed: its
// garbage collections and its event-loop stalls, each stall beside the collections that overlap it
// (bench/stalls.mjs, bench/stall-ops.mjs).
export function gcStalls(output) {
  // Each isolate prints its own address: the first one seen is the main thread's (a server collects
  // while it starts, long before a worker thread runs); a worker thread's
  // collections (the seed's worker of a large reset) stall no request.
  const all = [...output.matchAll(/^\[\d+:(0x[0-9a-f]+)\]\s+(\d+) ms: (.*?), ([\d.]+) \/ ([\d.]+) ms/gm)];
  const main = all[0]?.[1];
  const gcs = all.filter((m) => m[1] === main).map((m) => ({ at: Number(m[2]), what: m[3], ms: Number(m[4]) }));
  const stalls = [...output.matchAll(/^STALL (\d+) ms ending at (\d+) ms(.*)$/gm)].map((m) => ({ ms: Number(m[1]), end: Number(m[2]), note: m[3] }));
  return { gcs, stalls };
}

/** One line per stall, then one per collection during it. */
export function printStalls({ gcs, stalls }, threshold, print = console.log) {
  print(`${stalls.length} stalls over ${threshold} ms; ${gcs.length} collections, the longest ${Math.max(0, ...gcs.map((gc) => gc.ms))} ms`);
  for (const stall of stalls) {
    const during = gcs.filter((gc) => gc.at >= stall.end - stall.ms - 5 && gc.at <= stall.end + 5);
    const inGc = during.reduce((sum, gc) => sum + gc.ms, 0);
    print(`- ${stall.ms} ms ending at ${stall.end} ms${stall.note} (${Math.round(inGc)} ms of it in GC)`);
    for (const gc of during) print(`    gc at ${gc.at} ms: ${gc.ms} ms ${gc.what.slice(0, 90)}`);
  }
}
