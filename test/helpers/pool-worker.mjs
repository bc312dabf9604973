// A worker for test/proxy/thread-pool.test.ts: does what each message says, so that the pool's
// handling of a thread that answers, hangs, throws, exits or runs out of memory can be tested.
import { parentPort, threadId } from 'node:worker_threads';

parentPort.on('message', (task) => {
  if (task === 'hang') for (;;);
  if (task === 'throw') throw new Error('thrown in the thread');
  if (task === 'exit') process.exit(3);
  if (task === 'grow') {
    const kept = [];
    for (;;) kept.push(new Array(1_000_000).fill(kept.length));
  }
  parentPort.postMessage({ echo: task, threadId });
});
