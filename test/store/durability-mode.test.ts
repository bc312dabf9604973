// --durability over a store whose writes the test finishes by hand: in durable mode the answer
// waits for the write, in relaxed mode it does not. (Reading the file after the answer cannot tell
// the two apart: the write has finished by then either way.)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreOp } from '../../src/core/changes.js';
import type { MockData } from '../../src/core/model.js';
import { createMock } from '../../src/process/mock.js';
import type { DataStore } from '../../src/store/file/data-store.js';
import { contract, DEMO, fixtures, TEST_SEED } from '../helpers/test-app.js';

interface PendingWrite {
  ops: readonly StoreOp[];
  finish: () => void;
  finished: boolean;
}

/** A store that holds every write until the test finishes it. */
function handStore() {
  let data: MockData | null = null;
  const waiting: ((write: PendingWrite) => void)[] = [];
  const pending: PendingWrite[] = [];
  const store: DataStore = {
    location: 'hand',
    open: async () => data,
    write: (ops) =>
      new Promise<void>((resolve) => {
        const write: PendingWrite = {
          ops,
          finished: false,
          finish: () => {
            for (const op of ops) if (op.op === 'replace') data = op.data;
            write.finished = true;
            resolve();
          },
        };
        const taker = waiting.shift();
        if (taker) taker(write);
        else pending.push(write);
      }),
    close: async () => {},
  };
  /** The next write the store is asked for (already asked, or when it is). */
  const nextWrite = (): Promise<PendingWrite> => {
    const write = pending.shift();
    return write ? Promise.resolve(write) : new Promise((resolve) => waiting.push(resolve));
  };
  return { store, nextWrite };
}

const servers: http.Server[] = [];
afterEach(async () => {
  // closeAllConnections: an answer still waiting for a write must not hold the server open.
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve).closeAllConnections())));
});

async function start(durability: 'durable' | 'relaxed') {
  const { store, nextWrite } = handStore();
  const mock = createMock({ store, contract, fixtures, seed: TEST_SEED, version: 'test', durability });
  (await nextWrite()).finish(); // the seed
  const { app } = await mock;
  const responses: http.ServerResponse[] = [];
  const server = http.createServer(app).on('request', (_req, res: http.ServerResponse) => void responses.push(res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const create = (slug: string) =>
    fetch(`${url}/links`, {
      method: 'POST',
      headers: { 'x-api-key': DEMO, 'content-type': 'application/json' },
      body: JSON.stringify({ destinationUrl: 'https://example.com/a', domain: 'short.test', tags: [], slug }),
    });
  return { nextWrite, responses, create };
}

/** A turn of the event loop: whatever follows a resolved write without I/O has run by then. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('--durability', () => {
  it('durable: the 201 is sent only once the write has finished', async () => {
    const mock = await start('durable');
    const answer = mock.create('durable');
    const write = await mock.nextWrite();
    expect(write.ops).toEqual([expect.objectContaining({ op: 'put-link', link: expect.objectContaining({ slug: 'durable' }) })]);
    await turn();
    expect(mock.responses).toHaveLength(1);
    expect(mock.responses[0]?.headersSent, 'the answer was sent before the write finished').toBe(false);
    expect(mock.responses[0]?.writableEnded).toBe(false);
    write.finish();
    const res = await answer;
    expect(res.status).toBe(201);
    expect(((await res.json()) as { slug: string }).slug).toBe('durable');
  });

  it('relaxed: the 201 is sent while the write is still going on', async () => {
    const mock = await start('relaxed');
    const answer = mock.create('relaxed');
    const write = await mock.nextWrite();
    const res = await answer;
    expect(res.status).toBe(201);
    expect(write.finished).toBe(false);
    write.finish();
  });
});
