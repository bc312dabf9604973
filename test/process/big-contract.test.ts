// Issue 38, "Measure": the mock starts with a 1 MiB contract of 200 operations (the one
// bench:contract-start times, bench/lib/big-contract.mjs) and serves one of its generated
// operations. Correctness only: nothing here is timed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startMock } from '../../src/index.js';
// @ts-expect-error: a plain .mjs module of the bench, without types
import { writeBigContract } from '../../bench/lib/big-contract.mjs';

const dir = mkdtempSync(join(tmpdir(), 'slm-big-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('starts with a 1 MiB, 200-operation contract and serves a generated operation of it', { timeout: 180_000 }, async () => {
  const file = join(dir, 'big.yaml');
  const written = (writeBigContract as (file: string) => { bytes: number; operations: number })(file);
  expect(written.bytes).toBeGreaterThanOrEqual(1024 * 1024);
  expect(written.operations).toBe(200);
  const mock = await startMock({ contract: file });
  try {
    const answer = await fetch(`${mock.url}/resources7/res7_1`, { headers: { 'x-api-key': mock.apiKeys.demoKey } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-mock-generated')).toBe('getResource7');
    expect(((await answer.json()) as { id: string }).id).toBe('res7_1');
    expect((await fetch(`${mock.url}/resources7/res7_1`)).status).toBe(401);
  } finally {
    await mock.stop();
  }
});
