// Time bounds in ordinary tests that hold on a fast idle machine and on a loaded one alike: a wall
// clock also counts the time this process had no CPU (other test files, other processes), so a
// bound on it fails when the machine is busy, not when the code is slow.
// - cpuMsOf: the CPU this process spent on some work. For work that is computation (a parse, a
//   search, a request answered in this process): what a bound on "quickly" means, and the same on
//   any load. Vitest runs each file in a process of its own (pool 'forks'), so no other file's work
//   is counted.
// - runnableMsOf: the time that passed while this process could run, for work that waits on a
//   deadline of the code under test (a Redis call that gets no answer): wall time less the time the
//   process stood still without CPU, found from how late a 10 ms interval ran beyond the CPU it
//   spent meanwhile (so a loop the code itself blocks still counts in full). The Redis deadlines
//   charge only such time too (src/store/redis/deadline.ts).

/** Milliseconds of CPU (user + system) of this process since `from` (a process.cpuUsage() reading). */
function cpuMsSince(from: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(from);
  return (user + system) / 1000;
}

/** `work`'s value and the CPU this process spent until it settled. */
export async function cpuMsOf<T>(work: () => T | Promise<T>): Promise<{ value: T; cpuMs: number }> {
  const from = process.cpuUsage();
  const value = await work();
  return { value, cpuMs: cpuMsSince(from) };
}

const PROBE_MS = 10;

/** `work`'s outcome (fulfilled or rejected) and the milliseconds during which this process could run, until it settled. */
export async function runnableMsOf<T>(work: () => Promise<T>): Promise<{ outcome: PromiseSettledResult<T>; ms: number }> {
  const started = performance.now();
  let last = { at: started, cpu: process.cpuUsage() };
  let stood = 0;
  /** Counts the gap since the last reading, past the probe's period and the CPU spent in it, as standing still. */
  const read = (): number => {
    const now = { at: performance.now(), cpu: process.cpuUsage() };
    const cpuMs = (now.cpu.user - last.cpu.user + now.cpu.system - last.cpu.system) / 1000;
    stood += Math.max(0, now.at - last.at - PROBE_MS - cpuMs);
    last = now;
    return now.at;
  };
  const probe = setInterval(read, PROBE_MS);
  try {
    const outcome = await work().then(
      (value): PromiseSettledResult<T> => ({ status: 'fulfilled', value }),
      (reason: unknown): PromiseSettledResult<T> => ({ status: 'rejected', reason }),
    );
    return { outcome, ms: read() - started - stood };
  } finally {
    clearInterval(probe);
  }
}
