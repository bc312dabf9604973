// The admin client may be pointed at any server (connectMock, robustness --base-url, pact export
// --base-url): an answer that never ends must not fill the heap within the call's time.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { AdminApiError, AdminClient, MAX_ADMIN_ANSWER_BYTES } from '../../src/toolkit/admin-client.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A server answering every request with `chunks` chunks of 64 KiB (Infinity: until the client leaves). */
async function streaming(chunks: number): Promise<{ url: string; sent: () => number }> {
  let sent = 0;
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const more = (): void => {
      // Bounded in count whatever the client does: 4,096 chunks are 256 MiB.
      while (sent < Math.min(chunks, 4_096) && !res.destroyed) {
        sent += 1;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end(chunks === Infinity ? undefined : '{}');
    };
    res.on('close', () => res.destroy());
    more();
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, sent: () => sent };
}

describe('AdminClient: the size of an answer', () => {
  test('no answer is read past 32 MiB, whatever its route (each route has its own bound below it: admin-client-hostile.test.ts)', () => {
    expect(MAX_ADMIN_ANSWER_BYTES).toBe(32 * 1024 * 1024);
  });

  test('an answer that does not end is given up past the bound, and the rest is never read', async () => {
    const target = await streaming(Infinity);
    const client = new AdminClient(target.url, { maxAnswerBytes: 1024 * 1024, timeoutMs: 10_000 });
    const call = client.call('GET', '/requests');
    await expect(call).rejects.toBeInstanceOf(AdminApiError);
    await expect(call).rejects.toThrow(/answered more than 1048576 bytes/);
    // 1 MiB read (16 chunks) plus what the sockets held: far from the 4,096 the server would send.
    expect(target.sent()).toBeLessThan(1_000);
  });

  test('an answer within the bound is read whole', async () => {
    const target = await streaming(8);
    const client = new AdminClient(target.url, { maxAnswerBytes: 1024 * 1024 });
    // 512 KiB of spaces then {}: valid JSON, and the shape of a reset's answer (an object).
    await expect(client.call('POST', '/reset')).resolves.toEqual({});
  });
});

describe('AdminClient.document: a document outside /__admin (the served contract)', () => {
  test('is given up past its bound, and the rest is never read', async () => {
    const target = await streaming(Infinity);
    const call = new AdminClient(target.url).document('/openapi.yaml', 1024 * 1024);
    await expect(call).rejects.toThrow(/GET \/openapi\.yaml: .*answered more than 1048576 bytes/);
    expect(target.sent()).toBeLessThan(1_000);
  });

  test('is read whole within it', async () => {
    const target = await streaming(2);
    expect(await new AdminClient(target.url).document('/openapi.yaml', 1024 * 1024)).toHaveLength(2 * 64 * 1024 + 2);
  });
});
