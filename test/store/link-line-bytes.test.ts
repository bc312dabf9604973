// A seed's links reach the worker thread that writes its base as the bytes of their lines
// (src/store/file/link-line-bytes.ts, issue 40): exactly what writeRecords (chunked-json.ts) writes for
// them, for the links the seed draws and for any link whose text JSON escapes.
import { describe, expect, it } from 'vitest';
import { buildSeedLinks } from '../../fixtures/seed.js';
import type { LinkRecord } from '../../src/core/model.js';
import { encodeLinkLine, LineChunker, type LineChunk } from '../../src/store/file/link-line-bytes.js';
import { fixtures } from '../helpers/test-app.js';

/** writeRecords' text for these links (the ',' between lines is the writer's). */
function expected(links: readonly LinkRecord[]): Buffer {
  return Buffer.from(links.map((link) => `\n    ${JSON.stringify(link.id)}: ${JSON.stringify(link)}`).join(''));
}

function encoded(links: readonly LinkRecord[], size = 1 << 20): Buffer {
  const chunk = new Uint8Array(size);
  let at = 0;
  links.forEach((link, i) => {
    at = encodeLinkLine(chunk, at, link);
    expect(at, `link ${i} fits`).toBeGreaterThan(0);
  });
  return Buffer.from(chunk.subarray(0, at));
}

const LINK: LinkRecord = {
  id: 'lnk_abc',
  accountId: 'acc_1',
  domainId: 'dom_1',
  slug: 'a-b',
  destinationUrl: 'https://a.example/x',
  title: 'T',
  createdAt: '2026-01-01T00:00:00.000Z',
  clickCount: 3,
  tagIds: ['tag_1', 'tag_2'],
};

describe('a link line as bytes', () => {
  it('is writeRecords’ text for the links seeds draw (with and without a title, 0-3 tags)', () => {
    for (const seed of [1, 2, 42]) {
      const { links } = buildSeedLinks(seed, fixtures);
      expect(links.some((link) => link.title === undefined) && links.some((link) => link.tagIds.length === 0)).toBe(true);
      expect(encoded(links).equals(expected(links)), `seed ${seed}`).toBe(true);
    }
  });

  it('is JSON.stringify’s text for values JSON escapes, non-ASCII, odd numbers and extra fields', () => {
    const odd: LinkRecord[] = [
      { ...LINK, title: 'say "hi" \\ back\nslash\u0001' },
      { ...LINK, slug: 'café-😀', destinationUrl: 'https://é.example/\u007f' },
      { ...LINK, title: 'lone \ud800 surrogate' },
      { ...LINK, clickCount: 1.5 },
      { ...LINK, clickCount: -1 },
      { ...LINK, tagIds: [] },
      { ...LINK, extra: { note: 'x' } },
      { ...LINK, id: 'lnk_"quoted"' },
    ];
    for (const link of odd) expect(encoded([LINK, link]).equals(expected([LINK, link])), JSON.stringify(link)).toBe(true);
  });

  it('answers -1 when the line does not fit, for a plain line and an escaped one', () => {
    const line = expected([LINK]).length;
    expect(encodeLinkLine(new Uint8Array(line - 1), 0, LINK)).toBe(-1);
    expect(encodeLinkLine(new Uint8Array(line), 0, LINK)).toBe(line);
    const escaped = { ...LINK, title: 'é"' };
    expect(encodeLinkLine(new Uint8Array(expected([escaped]).length - 1), 0, escaped)).toBe(-1);
  });

  it('comes in chunks of whole lines, each line where `ends` says, a line longer than a chunk in one of its own', () => {
    const { links } = buildSeedLinks(7, fixtures);
    const sent = [...links.slice(0, 40), { ...LINK, title: 'x'.repeat(3000) }, ...links.slice(40)];
    const chunks: LineChunk[] = [];
    const chunker = new LineChunker((chunk) => chunks.push(chunk), 1024);
    for (const link of sent) chunker.add(link);
    chunker.flush();
    const lines = chunks.flatMap(({ bytes, ends }) => Array.from(ends, (end, i) => Buffer.from(bytes.subarray(i === 0 ? 0 : ends[i - 1], end)).toString()));
    expect(lines).toEqual(sent.map((link) => expected([link]).toString()));
    expect(chunks.every(({ bytes, ends }) => bytes.byteOffset === 0 && ends.at(-1) === bytes.length)).toBe(true);
  });
});
