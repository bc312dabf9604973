// Loaded by bench/stalls.mjs into the mock (`--import`): a 2 ms timer that notes how late it
// fires; a lateness over STALL_THRESHOLD_MS (30) is printed with the time since the process began,
// the clock --trace-gc prints too.
// Only in the main thread: --import runs in worker threads too (the seed's worker of a large reset,
// src/process/seed-worker.ts), whose one long step is no stall of the server's loop.
import { isMainThread } from 'node:worker_threads';

const threshold = Number(process.env.STALL_THRESHOLD_MS ?? 30);
const PERIOD_MS = 2;
let last = performance.now();
if (isMainThread) setInterval(() => {
  const now = performance.now();
  const late = now - last - PERIOD_MS;
  if (late > threshold) process.stderr.write(`STALL ${Math.round(late)} ms ending at ${Math.round(now)} ms\n`);
  last = now;
}, PERIOD_MS).unref();
