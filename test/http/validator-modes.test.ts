// One validator chain per contract document and mode is kept for the process (src/http/validator.ts):
// the validating proxy's chain validates requests only, a mock's validates its answers too. A mock
// built after a proxy on the same contract must still refuse to send an answer the contract
// forbids (issue 37 B2: with the mode's key ignoring `responses`, it answered 201 instead of 500).
import { expect, test } from 'vitest';
import type { Contract } from '../../src/core/contract-types.js';
import { contract, createTestApp, DEMO } from '../helpers/test-app.js';

test('a mock built after a proxy on the same contract still validates its own answers', async () => {
  // A contract object of this test's own: the chains are kept per document, and files share their
  // worker's modules, so on the shared one another file's mock could have built the chain first.
  const own: Contract = { ...contract, document: structuredClone(contract.document) };
  const proxy = await createTestApp({ contract: own, proxy: { url: new URL('http://127.0.0.1:9/'), strict: false, timeoutMs: 1_000, concurrency: 1 } });
  await proxy.close();
  const lines: string[] = [];
  const mock = await createTestApp({ contract: own, log: (line) => lines.push(line), handlers: { createLink: (_req, res) => void res.status(201).json({ errorDescription: 'not a Link' }) } });
  const res = await mock.request.post('/links').set('x-api-key', DEMO).send({ destinationUrl: 'https://example.com/x', domain: 'short.test', tags: [] });
  expect(res.status).toBe(500);
  expect(res.body.errorDescription).toMatch(/would break the contract/);
  expect(lines.filter((line) => line.startsWith('CONTRACT VIOLATION'))).toHaveLength(1);
});
