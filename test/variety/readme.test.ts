// The variety guide's list of dimensions (docs/variety.md) is the engine's: every dimension, with its operations, and no other.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { buildDimensions } from '../../src/variety/dimensions.js';
import { contract, createTestApp } from '../helpers/test-app.js';

const readme = readFileSync('docs/variety.md', 'utf8');

it('lists every dimension of variety with its operations, and no other', () => {
  const byRow = new Map<string, string[]>();
  for (const { field, variant, operationId } of buildDimensions(contract.document)) {
    const row = `${field}:${typeof variant === 'string' ? variant : variant.name}`;
    byRow.set(row, [...(byRow.get(row) ?? []), operationId]);
  }
  const listed = [...readme.matchAll(/^\| `([A-Za-z-]+:[a-z0-9-]+)` \| ([A-Za-z, ]+) \|/gm)].map((match) => [match[1], match[2]?.split(', ')]);
  expect(new Map(listed as [string, string[]][])).toEqual(byRow);
});

it('refuses a variety setting over its Limits-table bound (1,000 names)', async () => {
  const app = await createTestApp();
  const names = Array.from({ length: 1001 }, () => 'createLink.clickCount:absent');
  const res = await app.request.put('/__admin/variety').send({ seed: 1, only: names }).expect(400);
  expect(res.body.errorDescription).toMatch(/1000/);
  expect((await app.request.get('/__admin/variety').expect(200)).body).toEqual({ global: null, byKey: {} });
});
