// A stored link's slug is a string of its own, never V8's internalized instance (src/core/own-text.ts):
// JSON.parse internalizes every value of at most 10 characters, and every entry of the string table
// is walked twice in each full collection's pause (issue 40).
import { describe, expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { LinkRecord } from '../../src/core/model.js';
import { ownText } from '../../src/core/own-text.js';
import { slotSlug, type SlugIndex } from '../../src/core/slug-table.js';
import { MockState } from '../../src/core/state.js';
import { fixtures, TEST_SEED } from '../helpers/test-app.js';
import { isInternalized } from '../helpers/v8-strings.js';

/** `text` as JSON.parse gives it, a value of an object. */
const parsed = (text: string): string => (JSON.parse(JSON.stringify({ value: text })) as { value: string }).value;

describe('ownText', () => {
  it('gives an equal string outside the string table for every value JSON.parse internalizes (2 to 10 characters, any width)', () => {
    for (const text of ['ab', 'abc', 'yO1rOqH', 'abcdefghi', 'abcdefghij', 'é€', '𝄞x', '0123456789']) {
      const read = parsed(text);
      // ASCII up to 10 characters on Node 20 (V8 11.3), up to 9 on Node 22 and 24 (wider text: not there).
      if (text.length <= 9 && /^[\x20-\x7e]*$/.test(text)) expect(isInternalized(read), text).toBe(true);
      const own = ownText(read);
      expect(own).toBe(text);
      expect(isInternalized(own), text).toBe(false);
    }
  });

  it('keeps a one-character string and a longer one as they are (neither is a new entry)', () => {
    const one = parsed('a');
    expect(ownText(one)).toBe(one);
    const long = parsed('abcdefghijk');
    expect(isInternalized(long)).toBe(false);
    expect(ownText(long)).toBe(long);
  });
});

describe('a slug slotted in the index', () => {
  const template = (): LinkRecord => [...buildSeed(TEST_SEED, fixtures).links.values()][0] as LinkRecord;

  it('is kept by the link and its index as a copy of its own, found by any equal string', () => {
    const link = { ...template(), slug: parsed('mySlug') };
    const index: SlugIndex = new Map();
    expect(slotSlug(index, link)).toBe(true);
    expect(isInternalized(link.slug)).toBe(false);
    expect(link.slug).toBe('mySlug');
    expect(index.get(link.domainId)?.get(`my${'Slug'}`)).toBe(link);
  });

  it("is a copy of its own in MockState for a link added with a request's parsed slug", () => {
    const data = buildSeed(TEST_SEED, fixtures);
    const state = new MockState(data);
    const link = { ...template(), id: 'lnk_ownText', slug: parsed('req-slug') };
    state.addLink(link);
    expect(isInternalized(link.slug)).toBe(false);
    expect(state.linkAtDomain(link.domainId, 'req-slug')).toBe(link);
  });
});
