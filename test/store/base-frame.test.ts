// baseFrame (src/store/file/base-frame.ts): the text of a base file around its links' lines, so that
// a seed's worker thread handed the lines as bytes writes the file writeBaseEntries writes.
import { describe, expect, it } from 'vitest';
import { buildSeedLinks } from '../../fixtures/seed.js';
import { baseFrame, baseText } from '../../src/store/file/base-frame.js';
import { lineText } from '../../src/store/file/link-line-bytes.js';
import { fixtures } from '../helpers/test-app.js';

describe('a base file’s frame', () => {
  it('with the lines joined by "," between its two parts is writeBaseEntries’ file, for none, one and many links', async () => {
    const { data, links } = buildSeedLinks(11, fixtures);
    const { links: _none, ...head } = data;
    const frame = await baseFrame(head, 3);
    for (const some of [[], links.slice(0, 1), links]) {
      const text = await baseText(head, some.map((link) => [link.id, link] as const), 3);
      expect(frame.before + some.map((link) => lineText(link.id, link)).join(',') + frame.after(some.length > 0)).toBe(text);
    }
  });
});
