// The contracts' string formats with kept verdicts (src/http/kept-formats.ts): the same verdict as
// ajv-formats' full mode for every string, asked once or many times, and a bounded memory.
import { fullFormats } from 'ajv-formats/dist/formats.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { dateTimeJudge, keptVerdicts, MAX_KEPT_FORMAT_LENGTH, MAX_KEPT_FORMAT_VERDICTS, uriJudge, validatorFormats } from '../../src/http/kept-formats.js';
import { createTestApp, DEMO } from '../helpers/test-app.js';

const uris = ['https://example.com/a', 'http://x.y/p?q=1#f', 'mailto:a@b.c', 'not a url', '//no-scheme', 'https://exa mple.com', '', `https://example.com/${'a'.repeat(MAX_KEPT_FORMAT_LENGTH)}`, 'https://[::1]/x', 'ftp://x'];
const times = ['2026-11-28T22:45:11.123Z', '2026-11-28T22:45:11Z', '2026-11-28 22:45:11Z', '2026-13-28T22:45:11Z', '2026-11-28T25:45:11Z', '2026-11-28T22:45:11+01:00', 'yesterday', ''];
const dateTime = fullFormats['date-time'] as { validate: (text: string) => boolean; compare: unknown };

describe('kept format verdicts', () => {
  test("every verdict is ajv-formats' own, the first time and from the kept ones", () => {
    for (let round = 0; round < 2; round += 1) {
      for (const text of uris) expect([text, validatorFormats.uri(text)]).toEqual([text, (fullFormats.uri as (text: string) => boolean)(text)]);
      for (const text of times) expect([text, validatorFormats['date-time'].validate(text)]).toEqual([text, dateTime.validate(text)]);
    }
    expect(validatorFormats['date-time'].compare).toBe(dateTime.compare);
  });

  test('a string is judged once while kept; a long one every time', () => {
    const judged: string[] = [];
    const judge = keptVerdicts((text) => (judged.push(text), text.startsWith('ok')));
    expect([judge('ok1'), judge('bad'), judge('ok1'), judge('bad')]).toEqual([true, false, true, false]);
    expect(judged).toEqual(['ok1', 'bad']);
    const long = `ok${'x'.repeat(MAX_KEPT_FORMAT_LENGTH)}`;
    judge(long);
    judge(long);
    expect(judged).toEqual(['ok1', 'bad', long, long]);
  });

  test(`at most ${MAX_KEPT_FORMAT_VERDICTS} verdicts are kept: past that, the kept ones are dropped and judged again`, () => {
    let judged = 0;
    const judge = keptVerdicts(() => ((judged += 1), true));
    judge('first');
    for (let i = 0; i < MAX_KEPT_FORMAT_VERDICTS; i += 1) judge(`s${i}`);
    expect(judged).toBe(MAX_KEPT_FORMAT_VERDICTS + 1);
    judge('first'); // dropped when the kept ones reached the bound
    expect(judged).toBe(MAX_KEPT_FORMAT_VERDICTS + 2);
  });

  test('the API still refuses a URL it refused before and after accepting others', async () => {
    const t = await createTestApp();
    const create = (destinationUrl: string) => t.request.post('/links').set('x-api-key', DEMO).send({ destinationUrl, domain: 'short.test', tags: [] });
    for (let round = 0; round < 2; round += 1) {
      expect(JSON.stringify((await create('not a url').expect(400)).body)).toMatch(/destinationUrl/);
      await create('https://example.com/kept').expect(201);
    }
  });
});

describe("the mock's own forms, judged without ajv-formats' full regular expressions", () => {
  const fullUri = fullFormats.uri as (text: string) => boolean;

  test('a plain http(s) URL (every shortUrl the mock makes) is judged without the full uri judge; others still ask it', () => {
    const asked: string[] = [];
    const judge = uriJudge((text) => (asked.push(text), fullUri(text)));
    const own = ['https://short.test/a1B2c3', 'http://go.acme.test:8080/x/y-z_~.q', 'https://example.com/p?q=1&r=a.b'];
    expect(own.map(judge)).toEqual([true, true, true]);
    expect(asked).toEqual([]);
    expect(['https://exa mple.com', 'mailto:a@b.c', 'https://example.com/%7e'].map(judge)).toEqual([false, true, true]);
    expect(asked).toEqual(['https://exa mple.com', 'mailto:a@b.c', 'https://example.com/%7e']);
  });

  test("a date-time of the mock's form (toISOString's) is judged once per second, with the verdict of its whole second", () => {
    const asked: string[] = [];
    const judge = dateTimeJudge((text) => (asked.push(text), dateTime.validate(text)));
    expect(['2026-11-28T22:45:11.123Z', '2026-11-28T22:45:11.124Z', '2026-11-28T22:45:11.999Z'].map(judge)).toEqual([true, true, true]);
    expect(asked).toEqual(['2026-11-28T22:45:11Z']);
    // A leap second is valid only at 23:59 UTC, and stays so with its fraction; a bad day stays bad.
    expect(['2026-12-31T23:59:60.500Z', '2026-12-31T22:59:60.500Z', '2026-02-30T10:00:00.000Z', '2024-02-29T10:00:00.000Z'].map(judge)).toEqual([true, false, false, true]);
  });

  test("both give ajv-formats' own verdict on any string (seeded property run)", () => {
    // URL-shaped strings, mostly plain ones and some a character or a part away from plain.
    const from = (chars: string, maxLength: number) => fc.string({ unit: fc.constantFrom(...chars), maxLength });
    const urlish = fc
      .tuple(fc.constantFrom('http://', 'https://', 'HTTPS://', 'ftp://', 'http:/', 'https:', 'http//', ''), fc.oneof(from('abcXYZ019.-', 12), from('abcXYZ019.-_~%@[]: ', 12)), fc.constantFrom('', ':8080', ':', ':x'), fc.array(fc.oneof(from('abZ09.-_~', 6), from('abZ09.-_~%:@!$ #', 6)).map((segment) => `/${segment}`), { maxLength: 3 }), fc.constantFrom('', '?', '?a=1&b=c.d', '?q=%2', '?x=a b', '#f'))
      .map(([scheme, host, port, path, query]) => `${scheme}${host}${port}${path.join('')}${query}`);
    const uri = uriJudge(fullUri);
    fc.assert(fc.property(urlish, (text) => uri(text) === fullUri(text)), { seed: 40, numRuns: 3_000 });
    // And plain ones only, each judged by the short expression alone: every one must be valid to the full one.
    const plain = fc
      .tuple(fc.constantFrom('http', 'https', 'HTTP', 'hTTpS'), from('aZ09.-', 15), fc.constantFrom('', ':1', ':65535'), fc.array(from('aZ09.-_~', 8).map((segment) => `/${segment}`), { maxLength: 4 }), fc.constantFrom('', '?', "?a=1&b=c.d/e?f:g@h!$'()*+,;", '?=='))
      .map(([scheme, host, port, path, query]) => `${scheme}://${host}${port}${path.join('')}${query}`);
    const asked: string[] = [];
    const plainUri = uriJudge((text) => (asked.push(text), fullUri(text)));
    fc.assert(fc.property(plain, (text) => plainUri(text) === fullUri(text)), { seed: 40, numRuns: 2_000 });
    expect(asked.filter((text) => /^https?:\/\/[a-z0-9.-]+/i.test(text))).toEqual([]);
    const second = fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 33 }), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 999 }));
    const pad = (n: number, width: number): string => String(n).padStart(width, '0');
    const texts = second.map(([y, mo, d, h, mi, s, ms]) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(ms, 3)}Z`);
    const dt = dateTimeJudge(dateTime.validate);
    fc.assert(fc.property(texts, (text) => dt(text) === dateTime.validate(text)), { seed: 40, numRuns: 5_000 });
  });
});

