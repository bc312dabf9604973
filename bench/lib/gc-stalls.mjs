// Reads what a server started with `--trace-gc` and bench/lib/stall-preload.mjs printed: its
// garbage collections and its event-loop stalls, each stall beside the collections that overlap it
// (bench/stalls.mjs, bench/stall-ops.mjs).
export function gcStalls(output) {
  // Each isolate prints its own address: the first one seen is the main thread's (a server collects
  // while it starts, long before a worker thread runs); a worker thread's
  // collections (the seed's worker of a large reset) stall no request.
  const all = [...output.matchAll(/^\[\d+:(0x[0-9a-f]+)\]\s+(\d+) ms: (.*?), ([\d.]+) \/ ([\d.]+) ms(.*)$/gm)];
  const main = all[0]?.[1];
  const gcs = all.filter((m) => m[1] === main).map((m) => ({ at: Number(m[2]), what: m[3], ms: Number(m[4]), marking: markingOf(m[6]) }));
  const stalls = [...output.matchAll(/^STALL (\d+) ms ending at (\d+) ms(.*)$/gm)].map((m) => ({ ms: Number(m[1]), end: Number(m[2]), note: m[3] }));
  return { gcs, stalls };
}

/**
 * A full collection's incremental marking, which --trace-gc prints only as a sum on the
 * Mark-Compact line: `(+ 945.9 ms in 74 steps since start of marking, biggest step 128.0 ms,
 * walltime since start of marking 3037 ms)`. Its steps run on the main thread and hold the loop,
 * one by one, long before the pause: a stall "with no GC in it" inside that window may be a step.
 */
function markingOf(line) {
  const found = line.match(/\+ ([\d.]+) ms in (\d+) steps since start of marking, biggest step ([\d.]+) ms, walltime since start of marking (\d+) ms/);
  return found ? { ms: Number(found[1]), steps: Number(found[2]), biggest: Number(found[3]), wallMs: Number(found[4]) } : undefined;
}

/** One line per stall, then one per collection during it, or the incremental marking it fell in. */
export function printStalls({ gcs, stalls }, threshold, print = console.log) {
  print(`${stalls.length} stalls over ${threshold} ms; ${gcs.length} collections, the longest ${Math.max(0, ...gcs.map((gc) => gc.ms))} ms`);
  for (const stall of stalls) {
    const during = gcs.filter((gc) => gc.at >= stall.end - stall.ms - 5 && gc.at <= stall.end + 5);
    const inGc = during.reduce((sum, gc) => sum + gc.ms, 0);
    print(`- ${stall.ms} ms ending at ${stall.end} ms${stall.note} (${Math.round(inGc)} ms of it in GC)`);
    for (const gc of during) print(`    gc at ${gc.at} ms: ${gc.ms} ms ${gc.what.slice(0, 90)}`);
    const marking = gcs.find((gc) => gc.marking && stall.end > gc.at - gc.marking.wallMs && stall.end - stall.ms < gc.at);
    if (marking && !during.includes(marking)) print(`    during the incremental marking of the Mark-Compact at ${marking.at} ms (${marking.marking.ms} ms in ${marking.marking.steps} steps on this thread, the biggest ${marking.marking.biggest} ms)`);
  }
}
