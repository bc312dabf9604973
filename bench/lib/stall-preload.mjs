// Loaded by bench/stalls.mjs into the mock (`--import`): a 2 ms timer that notes how late it
// fires; a lateness over STALL_THRESHOLD_MS (30) is printed with the time since the process began,
// the clock --trace-gc prints too.
const threshold = Number(process.env.STALL_THRESHOLD_MS ?? 30);
const PERIOD_MS = 2;
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  const late = now - last - PERIOD_MS;
  if (late > threshold) process.stderr.write(`STALL ${Math.round(late)} ms ending at ${Math.round(now)} ms\n`);
  last = now;
}, PERIOD_MS).unref();
