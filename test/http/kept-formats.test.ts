// The contracts' string formats with kept verdicts (src/http/kept-formats.ts): the same verdict as
// ajv-formats' full mode for every string, asked once or many times, and a bounded memory.
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, test } from 'vitest';
import { keptVerdicts, MAX_KEPT_FORMAT_LENGTH, MAX_KEPT_FORMAT_VERDICTS, validatorFormats } from '../../src/http/kept-formats.js';
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
