// An instance's copy of shared variety settings follows the others' changes: a read of the change
// counter every `everyMs` (one GET), the settings themselves only when it moved. In the background,
// so that a request never waits on Redis for variety; a failed read (Redis away) keeps the copy
// as it is and is logged once until a read works again.
import type { VarietySwitch } from './switch.js';

/** How far behind a change through another instance may be (the README says so). */
export const VARIETY_FOLLOW_MS = 250;

export function followShared(variety: VarietySwitch, everyMs: number, log: (line: string) => void): () => void {
  if (!variety.shared) return () => undefined;
  let failing = false;
  let reading = false;
  const timer = setInterval(() => {
    if (reading) return;
    reading = true;
    variety
      .refresh()
      .then(() => {
        if (failing) log('variety settings: read from Redis again');
        failing = false;
      })
      .catch((error: unknown) => {
        if (!failing) log(`variety settings: cannot read them from Redis (${(error as Error).message}); keeping the last ones read`);
        failing = true;
      })
      .finally(() => {
        reading = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
