// A worker for test/proxy/thread-pool.test.ts: does what each message says, so that the pool's
// handling of a thread that answers, hangs (busy, or blocked without using CPU), throws, exits or
// runs out of memory, or is slow to start, can be tested.
import { parentPort, threadId, workerData } from 'node:worker_threads';

// A thread slow to start (loading a large entry on a loaded machine): its top level takes this long.
if (workerData?.startMs) await new Promise((resolve) => setTimeout(resolve, workerData.startMs));

parentPort.on('message', (task) => {
  if (task === 'hang') for (;;);
  // Never answers and costs no CPU while the pool's timer runs: terminate() interrupts the wait.
  if (task === 'block') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  if (task === 'throw') throw new Error('thrown in the thread');
  if (task === 'exit') process.exit(3);
  if (task === 'grow') {
    const kept = [];
    for (;;) kept.push(new Array(1_000_000).fill(kept.length));
  }
  parentPort.postMessage({ echo: task, threadId });
});
