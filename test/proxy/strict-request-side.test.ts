// --proxy-strict turns an off-contract *answer* into a 502, never an off-contract *request*: a
// client that sends what the contract refuses and an upstream that rightly refuses it with a 400
// is the contract kept by the upstream. The client must get that 400 as the upstream sent it, with
// the request side counted in x-contract-violations.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';

let upstream: RunningMock;
let proxy: RunningMock;

beforeAll(async () => {
  upstream = await startMock({ seed: 7 });
  proxy = await startMock({ seed: 7, proxy: upstream.url, proxyStrict: true });
});

afterAll(async () => {
  await proxy?.stop();
  await upstream?.stop();
});

it("strict: an off-contract request the upstream rightly refuses gets the upstream's 400 unchanged, with x-contract-violations: 1", async () => {
  const body = JSON.stringify({ destinationUrl: 'https://example.com', domain: 'short.test', tags: [], colour: 'red' });
  const init = { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'demo-key' }, body };
  const direct = await fetch(`${upstream.url}/links`, init);
  const proxied = await fetch(`${proxy.url}/links`, init);
  expect(proxied.status).toBe(400);
  expect(proxied.headers.get('x-contract-violations')).toBe('1');
  expect(await proxied.text()).toBe(await direct.text());
  const [entry] = await proxy.journal({ limit: 1 });
  expect(entry).toMatchObject({ status: 400, verdict: 'invalid-request', upstream: { status: 400 }, violations: [{ side: 'request' }] });
});
