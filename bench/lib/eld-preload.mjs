// Loaded into the measured server with `node --import bench/lib/eld-preload.mjs …` (src/ is not
// touched): perf_hooks.monitorEventLoopDelay inside that process, read by the harness over the
// IPC channel. {cmd:'reset'} starts a window; {cmd:'read'} answers the window's stats in ms.
import { monitorEventLoopDelay } from 'node:perf_hooks';

if (process.send) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  process.channel?.unref();
  process.on('message', (message) => {
    if (message?.cmd === 'reset') histogram.reset();
    if (message?.cmd !== 'read') return;
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    // Answered after the monitor's next tick: a stall ending just before this message arrived (in the
    // same poll phase) is recorded only when its timer runs next, and was read as 0 (bench:scale).
    setTimeout(() => process.send({ eld: { max: ms(histogram.max), p99: ms(histogram.percentile(99)), mean: ms(histogram.mean), count: histogram.count } }), 12);
  });
}
