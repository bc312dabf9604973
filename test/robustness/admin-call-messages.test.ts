// What the robustness runner says when the mock's admin API stops answering mid-run (it prints the
// admin client's message as it is): a call with no answer, and one whose answer trickles past the
// bound. Each names the call (method and URL) and the bound, once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminClient } from '../../src/toolkit/admin-client.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? (server.closeAllConnections(), server.close(() => done())) : done())));

/** A server that sends nothing (`headers: false`) or its headers and one byte of the body, then nothing more; /warm it answers. */
async function stalling(headers: boolean): Promise<string> {
  server = createServer((req, res) => {
    if (req.url === '/warm') res.end('{}');
    else if (headers) res.writeHead(200, { 'content-type': 'application/json' }).write('{');
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

// 2 s, not less: the first fetch of a process compiles undici's HTTP parser (0.3 s here), within the bound.
describe('an admin call past its bound', () => {
  it('no answer: names the call and the bound, without saying "no answer" twice', async () => {
    const base = await stalling(false);
    const call = new AdminClient(base, { timeoutMs: 2_000 }).call('GET', '/requests', undefined, { limit: 1 });
    await expect(call).rejects.toThrow(`GET /__admin/requests: no answer within 2000 ms from ${base}/__admin/requests?limit=1`);
  });

  it('an answer that trickles: names the call and the bound, not a bare "aborted due to timeout"', async () => {
    const base = await stalling(true);
    // Its headers must come within the bound for this message: the first fetch of a process, which
    // compiles undici's parser (seconds on a loaded machine), is made before, outside the bound.
    expect(await (await fetch(`${base}/warm`)).text()).toBe('{}');
    const call = new AdminClient(base, { timeoutMs: 2_000 }).call('GET', '/requests', undefined, { limit: 1 });
    await expect(call).rejects.toThrow(`GET /__admin/requests: the answer from ${base}/__admin/requests?limit=1 did not end within 2000 ms`);
  });
});
