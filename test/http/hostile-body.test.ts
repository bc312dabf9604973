// D28: a body nested deeper than 64 levels is a 400 naming the limit, however it arrives
// (plain, gzip, to the API or to the admin API under any spelling of its path), and no walk over a
// client's body can take the server down or poison the journal.
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import type { Test } from 'supertest';
import { capBody } from '../../src/core/journal.js';
import { expectError } from '../helpers/contract-assert.js';
import { createTestApp, DEMO, type TestApp } from '../helpers/test-app.js';

const deepArrays = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
const deepObjects = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
/** A createLink body whose one tag nests `levels` levels in all (the body object is level 1). */
const deepInTag = (levels: number): string =>
  `{"tags":[${'{"name":'.repeat(levels - 2)}"x"${'}'.repeat(levels - 2)}],"destinationUrl":"https://e.test","domain":"short.test"}`;

const rawJson = (req: Test, body: string | Buffer, headers: Record<string, string> = {}): Test =>
  req.set({ 'content-type': 'application/json', ...headers }).serialize((payload: unknown) => payload as string).send(body as string);
const withKey = (req: Test): Test => req.set('x-api-key', DEMO);

async function expectStillServing(t: TestApp): Promise<void> {
  const journal = await t.request.get('/__admin/requests');
  expect(journal.status).toBe(200);
  const created = await withKey(t.request.post('/links')).send({ tags: [], destinationUrl: 'https://ok.test', domain: 'short.test' });
  expect(created.status).toBe(201);
}

describe('deeply nested bodies (D28)', () => {
  test.each([
    ['arrays, 6,000 levels', deepArrays(6000)],
    ['objects, 6,000 levels', deepObjects(6000)],
    ['65 levels inside a tag', deepInTag(65)],
  ])('POST /links with %s: 400 naming the limit, nothing changes, the server goes on', async (_name, body) => {
    const t = await createTestApp();
    const before = await t.data();
    expectError(await rawJson(withKey(t.request.post('/links')), body), 400, { mentions: /nested more than 64 levels/ });
    expect(await t.data()).toEqual(before);
    await expectStillServing(t);
  });

  test('64 levels are accepted by the parser (the contract then judges the fields)', async () => {
    const t = await createTestApp();
    const res = await rawJson(withKey(t.request.post('/links')), deepInTag(64));
    expectError(res, 400);
    expect((res.body as { errorDescription: string }).errorDescription).not.toMatch(/nested/);
  });

  test('brackets inside strings do not count', async () => {
    const t = await createTestApp();
    // 70 unbalanced openers in strings, one with an escaped quote before them.
    const tags = [{ name: '[{'.repeat(25) }, { name: '"\\"' + '['.repeat(20) }];
    const res = await withKey(t.request.post('/links')).send({ tags, destinationUrl: 'https://e.test/', domain: 'short.test' });
    expect(res.status).toBe(201);
  });

  test('without a key, 401 comes first (D14): the body, read for the journal only, is refused by its depth and never parsed', async () => {
    const t = await createTestApp();
    expectError(await rawJson(t.request.post('/links'), deepArrays(6000)), 401);
    const [entry] = (await t.request.get('/__admin/requests').expect(200)).body.entries as { status: number; requestBody: unknown }[];
    expect(entry).toMatchObject({ status: 401, requestBody: null });
    await expectStillServing(t);
  });

  test('a 458-byte gzip body that inflates to 50,000 levels is refused by its inflated depth', async () => {
    const t = await createTestApp();
    const zipped = gzipSync(deepArrays(50_000));
    expect(zipped.length).toBeLessThan(1024);
    const res = await rawJson(withKey(t.request.post('/links')), zipped, { 'content-encoding': 'gzip' });
    expectError(res, 400, { mentions: /64 levels/ });
    await expectStillServing(t);
  });

  test('gzip bodies are journaled by their inflated size: a large one is kept as a preview', async () => {
    const t = await createTestApp();
    const body = JSON.stringify({ tags: [], destinationUrl: `https://e.test/${'a'.repeat(1500)}`, domain: 'short.test', slug: 'x'.repeat(60) });
    const padded = JSON.stringify({ ...JSON.parse(body), pad: 'p'.repeat(20_000) });
    await rawJson(withKey(t.request.post('/links')), gzipSync(padded), { 'content-encoding': 'gzip' });
    const [entry] = await t.journal.list();
    expect(entry?.requestBody).toMatchObject({ truncated: true, chars: padded.length });
  });

  test.each(['/__ADMIN/scenario', '/__Admin/scenario', '/__admin/scenario'])(
    'PUT %s with a deep body: 400, kept out of the API journal, the journal stays readable',
    async (path) => {
      const t = await createTestApp();
      const res = await rawJson(t.request.put(path), `{"name":${deepArrays(6000)}}`);
      expectError(res, 400, { mentions: /64 levels/ });
      expect(await t.journal.list()).toEqual([]);
      await expectStillServing(t);
    },
  );

  test('the journal stream survives a hostile body sent while it is open', async () => {
    const t = await createTestApp();
    const server = t.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    const stream = await fetch(`http://127.0.0.1:${port}/__admin/requests/stream`);
    const reader = stream.body!.getReader();
    try {
      const zipped = gzipSync(deepObjects(50_000));
      const refused = await fetch(`http://127.0.0.1:${port}/links`, {
        method: 'POST',
        headers: { 'x-api-key': DEMO, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: zipped,
      });
      expect(refused.status).toBe(400);
      let seen = '';
      for (let reads = 0; reads < 20 && !seen.includes('"status":400'); reads++) seen += new TextDecoder().decode((await reader.read()).value);
      expect(seen).toContain('event: entry');
      expect(seen).toContain('"status":400');
      await expectStillServing(t);
    } finally {
      await reader.cancel();
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('bodies that are not UTF-8', () => {
  test('invalid UTF-8 in a tag name is a 400, not a stored U+FFFD', async () => {
    const t = await createTestApp();
    const before = await t.data();
    const bytes = Buffer.concat([
      Buffer.from('{"tags":[{"name":"a'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('b"}],"destinationUrl":"https://e.test","domain":"short.test"}'),
    ]);
    expectError(await rawJson(withKey(t.request.post('/links')), bytes), 400, { mentions: 'UTF-8' });
    expect(await t.data()).toEqual(before);
  });

  test('a charset other than UTF-8 is refused with the reason', async () => {
    const t = await createTestApp();
    const body = Buffer.from(JSON.stringify({ tags: [], destinationUrl: 'https://e.test', domain: 'short.test' }), 'utf16le');
    const res = await rawJson(withKey(t.request.post('/links')), body, { 'content-type': 'application/json; charset=utf-16le' });
    expectError(res, 400, { mentions: 'UTF-8' });
  });
});

describe('capBody never throws, whatever it is given', () => {
  test('a structure nested 100,000 levels deep becomes a note, not a RangeError', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(capBody(deep)).toMatchObject({ truncated: true });
  });

  test('a cyclic structure becomes a note', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(capBody(cyclic, 10_000)).toMatchObject({ truncated: true });
  });
});
