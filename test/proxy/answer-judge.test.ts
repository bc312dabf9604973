// The proxy judges a small upstream answer inline and a large one in a thread (answer-judge.ts):
// both must give the same verdict, rule for rule and detail for detail, and the same journal body.
// Each answer of the table is judged both ways: inline (no size limit) and in the thread (every size).
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { capBody } from '../../src/core/journal.js';
import { AnswerJudge } from '../../src/proxy/answer-judge.js';
import { MAX_UPSTREAM_BODY } from '../../src/proxy/forward.js';
import type { UpstreamAnswer } from '../../src/proxy/response-check.js';
import { contract } from '../helpers/test-app.js';

const inline = new AnswerJudge(contract.document, { inlineMaxBytes: MAX_UPSTREAM_BODY });
const threaded = new AnswerJudge(contract.document, { inlineMaxBytes: 0, threads: 1 });
afterAll(() => threaded.close());

const LINK = { id: 'lnk_1', createdAt: '2026-01-01T00:00:00Z', destinationUrl: 'https://e.test/', slug: 'abc', domain: { id: 'dom_1', name: 'short.test' }, shortUrl: 'https://short.test/abc', tags: [] };
const numbers = (count: number): number[] => Array.from({ length: count }, (_, i) => i);
const fields = (count: number): Record<string, number> => Object.fromEntries(numbers(count).map((i) => [`field${i}`, i]));
const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

interface Case {
  name: string;
  operationId: string | null;
  status: number;
  contentType?: string | null;
  contentEncoding?: string;
  body: Buffer;
}

const CASES: Case[] = [
  { name: 'a valid link', operationId: 'createLink', status: 201, body: json(LINK) },
  { name: 'an invalid link (types, a missing field, a bad format)', operationId: 'createLink', status: 201, body: json({ ...LINK, id: 7, slug: undefined, createdAt: 'yesterday', tags: [{ id: 1 }, { id: 2, name: 3 }] }) },
  { name: 'a link of 1 MiB of distinct unknown fields', operationId: 'updateLink', status: 200, body: json({ ...LINK, ...fields(60_000) }) },
  { name: 'a link of 40,000 tags with numeric ids', operationId: 'updateLink', status: 200, body: json({ ...LINK, tags: numbers(40_000).map((i) => ({ id: i, name: 'n' })) }) },
  { name: 'a link of 150,000 tags (over maxItems)', operationId: 'createLink', status: 201, body: json({ ...LINK, tags: numbers(150_000) }) },
  { name: '16 MiB of empty arrays (8 million values: their parse alone would pass the thread heap limit)', operationId: 'createLink', status: 201, body: Buffer.from(`[${'[],'.repeat((MAX_UPSTREAM_BODY - 3) / 3)}[]]`) },
  { name: 'an answer nested 100,000 levels deep', operationId: 'createLink', status: 201, body: Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) },
  { name: 'a valid Error object of 2 MiB', operationId: 'updateLink', status: 404, body: json({ errorDescription: 'x'.repeat(2 * 1024 * 1024) }) },
  { name: 'not JSON at all', operationId: 'createLink', status: 201, body: Buffer.from('<html>oops</html>'.repeat(10_000)) },
  { name: 'JSON cut off', operationId: 'createLink', status: 201, body: json({ ...LINK, tags: numbers(20_000) }).subarray(0, 70_000) },
  { name: 'text/html', operationId: 'createLink', status: 201, contentType: 'text/html', body: Buffer.from('<p>hi</p>'.repeat(10_000)) },
  { name: 'no content type', operationId: 'createLink', status: 201, contentType: null, body: json(LINK) },
  { name: 'a status the contract lacks', operationId: 'deleteLink', status: 500, body: json({ errorDescription: 'boom' }) },
  { name: 'a 204 with a body', operationId: 'deleteLink', status: 204, body: Buffer.alloc(100_000, 0x20) },
  { name: 'not UTF-8', operationId: 'createLink', status: 201, body: Buffer.concat([json(LINK).subarray(0, 20), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.alloc(70_000, 0x20)]) },
  { name: 'a path outside the contract', operationId: null, status: 200, body: json({ anything: 'x'.repeat(100_000) }) },
  { name: 'a gzip answer', operationId: 'createLink', status: 201, contentEncoding: 'gzip', body: gzipSync(json({ ...LINK, ...fields(20_000) })) },
  { name: 'a brotli answer nested deep', operationId: 'createLink', status: 201, contentEncoding: 'br', body: brotliCompressSync(Buffer.from(`${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`)) },
  { name: 'a gzip answer decoding past 16 MiB', operationId: 'createLink', status: 201, contentEncoding: 'gzip', body: gzipSync(Buffer.alloc(MAX_UPSTREAM_BODY + 1, 0x20)) },
  { name: 'broken gzip', operationId: 'createLink', status: 201, contentEncoding: 'gzip', body: Buffer.from('not gzip at all') },
  { name: 'an unknown content encoding', operationId: 'createLink', status: 201, contentEncoding: 'zstd', body: json(LINK) },
];

const answerOf = (c: Case): UpstreamAnswer => ({ status: c.status, contentType: c.contentType === undefined ? 'application/json' : c.contentType, contentEncoding: c.contentEncoding ?? null, body: c.body });

describe('the same verdict inline and in the judging thread', () => {
  it.each(CASES)('$name', async (c) => {
    const here = inline.inline(c.operationId, answerOf(c));
    expect(here).toBeDefined();
    expect(threaded.inline(c.operationId, answerOf(c))).toBeUndefined();
    const there = await threaded.offThread(c.operationId, answerOf(c));
    expect(there).toEqual(here);
  });

  it('the table has what it claims: violations of each kind, and answers that keep the contract', async () => {
    const verdicts = await Promise.all(CASES.map((c) => threaded.offThread(c.operationId, answerOf(c))));
    const rules = verdicts.flatMap((verdict) => verdict.violations.map((violation) => violation.rule)).join('\n');
    expect(rules).toMatch(/nested more than 64 levels deep/);
    expect(rules).toMatch(/holds more than 200000 values, more than any answer the contract documents/);
    expect(rules).toMatch(/has an unexpected field/);
    expect(rules).toMatch(/must NOT have more than 50 items|more than 50/);
    expect(rules).toMatch(/is not valid JSON/);
    expect(rules).toMatch(/cannot be decoded/);
    expect(verdicts[0]?.violations).toEqual([]);
    expect(verdicts[7]?.violations).toEqual([]);
    expect(verdicts[7]?.body).toMatchObject({ truncated: true, chars: CASES[7]?.body.length });
    // A preview made in the thread is kept by the journal as it is, as one made here would be.
    expect(capBody(verdicts[7]?.body)).toBe(verdicts[7]?.body);
  });
});

describe('an answer the judging thread cannot judge', () => {
  const bigError = answerOf({ name: 'a 1 MiB Error object', operationId: 'updateLink', status: 404, body: json({ errorDescription: 'x'.repeat(1024 * 1024) }) });
  // 190,000 objects (under MAX_ANSWER_VALUES), each with a string of its own, made one by one: the
  // heap fills gradually (one allocation past the limit and 16 MiB more would end the whole
  // process: V8's rule, not one a thread can catch).
  const manyObjects = answerOf({ name: '190,000 objects of 60 characters', operationId: 'updateLink', status: 200, body: json(Array.from({ length: 190_000 }, (_, i) => ({ a: `${i}`.padStart(60, 'x') }))) });

  it('past its memory: a violation that says so, the thread replaced for the next answer', async () => {
    const small = new AnswerJudge(contract.document, { inlineMaxBytes: 0, threads: 1, heapMb: 24 });
    try {
      expect(small.threadsRunning).toBe(0);
      expect(await small.offThread('updateLink', bigError)).toEqual({ violations: [], body: expect.objectContaining({ truncated: true }) });
      expect(await small.offThread('updateLink', manyObjects)).toEqual({
        violations: [{ side: 'response', rule: 'the answer to updateLink could not be judged', detail: expect.stringMatching(/judging thread was stopped: .*memory limit/) }],
        body: null,
      });
      expect(await small.offThread('updateLink', bigError)).toEqual({ violations: [], body: expect.objectContaining({ truncated: true }) });
      expect(small.threadsRunning).toBe(1);
    } finally {
      await small.close();
    }
    expect(small.threadsRunning).toBe(0);
  });

  it('past its time: a violation that says so; outside the contract, no violation and no preview', async () => {
    // Work no thread finishes within 1 ms on any machine: inflating 16 MiB comes before anything
    // else, on both paths (outside the contract too, for its preview). A 1 MiB answer was not
    // enough: outside the contract its preview is a slice, and a fast run made it in time.
    const slow = answerOf({ name: 'a 16 MiB Error object, gzipped', operationId: 'updateLink', status: 404, contentEncoding: 'gzip', body: gzipSync(json({ errorDescription: 'x'.repeat(MAX_UPSTREAM_BODY - 64) })) });
    const hasty = new AnswerJudge(contract.document, { inlineMaxBytes: 0, threads: 1, timeoutMs: 1 });
    try {
      expect(await hasty.offThread('updateLink', slow)).toEqual({ violations: [{ side: 'response', rule: 'the answer to updateLink could not be judged', detail: 'its judging thread was stopped: it took more than 1 ms' }], body: null });
      expect(await hasty.offThread(null, slow)).toEqual({ violations: [], body: null });
    } finally {
      await hasty.close();
    }
  });

  it('a small answer starts no thread', () => {
    const lazy = new AnswerJudge(contract.document);
    expect(lazy.inline('createLink', answerOf(CASES[0] as Case))).toEqual({ violations: [], body: LINK });
    expect(lazy.threadsRunning).toBe(0);
  });
});
