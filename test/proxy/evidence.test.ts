// What the proxy writes down about an exchange is safe to print and to share: every value of the
// query string is masked in the drift report's evidence (any may be a credential), and control
// characters a client put in a field name or a path never reach a log line or the terminal of
// `shortlink-mock drift` raw (a `\n` forged a log line; ESC sequences drove the terminal).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatDrift } from '../../src/commands/drift-format.js';
import { startMock, type RunningMock } from '../../src/index.js';

let upstream: RunningMock;
let proxy: RunningMock;
const lines: string[] = [];

beforeAll(async () => {
  upstream = await startMock({ seed: 7 });
  proxy = await startMock({ seed: 7, proxy: upstream.url, quiet: false, log: (line) => lines.push(line) });
});

afterAll(async () => {
  await proxy?.stop();
  await upstream?.stop();
});

it('masks every value of the query string in the drift evidence, and keeps the names', async () => {
  await fetch(`${proxy.url}/nowhere?apiKey=SECRET1&token=SECRET2&Client_Secret=SECRET3&password=SECRET4&sig=SECRET5&code=SECRET6&jwt=SECRET7&sid=SECRET8&page=2`, { headers: { 'x-api-key': 'demo-key' } });
  const report = await proxy.violations();
  const text = JSON.stringify(report);
  expect(text).not.toMatch(/SECRET\d/);
  expect(text).toContain('/nowhere?apiKey=***&token=***&Client_Secret=***&password=***&sig=***&code=***&jwt=***&sid=***&page=***');
});

it('escapes control characters of field names in log lines and in the drift output', async () => {
  const body = `{"destinationUrl":"https://example.com","domain":"short.test","tags":[],"x\\nINTERNAL ERROR forged\\u001b[2J\\u009b31m":1}`;
  await fetch(`${proxy.url}/links`, { method: 'POST', headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' }, body });
  const logged = lines.join('\n');
  expect(logged).toContain('CONTRACT VIOLATION');
  expect(logged.split('\n').some((line) => line.startsWith('INTERNAL ERROR forged'))).toBe(false);
  expect(logged).not.toMatch(/[\u001b\u009b]/);
  expect(logged).toContain('x\\nINTERNAL ERROR forged\\u001b[2J\\u009b31m');
  const drift = formatDrift(await proxy.violations(), proxy.url);
  expect(drift).toContain('forged');
  expect(drift).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  expect(drift.split('\n').some((line) => line.startsWith('INTERNAL ERROR forged'))).toBe(false);
});
