// A stop must not wait for a client's idle keep-alive connection. A request already in flight when
// the stop begins is answered without `connection: close` (only later requests get it), and its
// connection then sits idle: a keep-alive client (undici's fetch holds one ~3 s; an http.Agent
// with keepAlive, for ever) kept the stop waiting for the grace period's forced close. Under
// steady load that made a SIGTERM take 3 s, past the container's 2 s.
import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/process/config.js';
import { startFromConfig, stopStarted } from '../../src/process/startup.js';

const GRACE_MS = 4000;
const agent = new Agent({ keepAlive: true });
afterEach(() => agent.destroy());

function createOnKeepAlive(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ destinationUrl: 'https://example.com/keep-alive', domain: 'short.test', tags: [] });
    const req = request(`${url}/links`, { method: 'POST', agent, headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
    req.end(body);
  });
}

describe('a stop with a request in flight on a keep-alive connection', () => {
  it('answers it, then closes its connection once idle instead of waiting for the grace period', async () => {
    const started = await startFromConfig(parseConfig(['--port', '0', '--db', ':memory:', '--quiet'], {}), () => undefined);
    let stopping: Promise<void> | undefined;
    let stopBegan = 0;
    // Registered after the app's listener: the request is being handled, its answer not yet written.
    started.server.once('request', () => {
      stopBegan = Date.now();
      stopping = stopStarted(started, GRACE_MS);
    });
    expect(await createOnKeepAlive(started.url)).toBe(201);
    await stopping;
    expect(Date.now() - stopBegan).toBeLessThan(1000);
  });
});
