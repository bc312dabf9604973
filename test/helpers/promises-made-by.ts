// Counts the promises one piece of work makes, and only its own: those made while a resource of the
// work runs, or triggered by one (a chain off a promise made before counts when the work chains it). A hook that counted every promise of the process counted
// Vitest's own: its worker reports to the main thread while a test awaits, and under load on
// Node 22 a count of 7 read 21 (CI, stop 54). The work's own promises do not depend on the load.
// The count includes the one promise of this helper's await of the work's promise, which that
// promise triggers: the caller's await, as a test that awaits the work itself would count it.
import { AsyncResource, createHook, executionAsyncId } from 'node:async_hooks';

export async function promisesMadeBy<T>(work: () => Promise<T>): Promise<{ promises: number; result: T }> {
  const root = new AsyncResource('promises-made-by');
  const family = new Set([root.asyncId()]);
  let promises = 0;
  const hook = createHook({
    init(asyncId, type, triggerAsyncId) {
      if (!family.has(triggerAsyncId) && !family.has(executionAsyncId())) return;
      family.add(asyncId);
      if (type === 'PROMISE') promises += 1;
    },
  });
  hook.enable();
  try {
    const result = await root.runInAsyncScope(work);
    return { promises, result };
  } finally {
    hook.disable();
    root.emitDestroy();
  }
}
