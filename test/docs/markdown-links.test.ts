// The link check itself, on small files: it must find a missing file, a missing heading and a
// heading of another file, and let through what GitHub resolves.
import { describe, expect, it } from 'vitest';
import { anchorsOf, brokenLinks, headingAnchor, relativeLinks, type Files } from './markdown-links.js';

function filesOf(tree: Record<string, string>): Files {
  return {
    resolve: (from, target) => {
      const parts = [...from.split('/').slice(0, -1), ...target.split('/')];
      const out: string[] = [];
      for (const part of parts) if (part === '..') out.pop(); else if (part !== '.' && part !== '') out.push(part);
      return out.join('/');
    },
    read: (path) => tree[path],
  };
}

describe('headingAnchor, as GitHub makes anchors', () => {
  it.each([
    ['Quick start', 'quick-start'],
    ["The mock's own routes", 'the-mocks-own-routes'],
    ['Create a link (`createLink`)', 'create-a-link-createlink'],
    ['Pact: contracts in the language of contract-testing teams', 'pact-contracts-in-the-language-of-contract-testing-teams'],
    ['Does your client survive every answer the contract allows?', 'does-your-client-survive-every-answer-the-contract-allows'],
    ['In CI: start it, wait for this mock, stop it', 'in-ci-start-it-wait-for-this-mock-stop-it'],
    ['D30 text_fields — Unicode é', 'd30-text_fields--unicode-é'],
  ])('%s → %s', (heading, anchor) => {
    expect(headingAnchor(heading)).toBe(anchor);
  });

  it('numbers a repeated heading, and ignores # lines in code blocks', () => {
    expect([...anchorsOf('# A\n## A\n```sh\n# B\n```\n### A\n')]).toEqual(['a', 'a-1', 'a-2']);
  });
});

describe('relativeLinks', () => {
  it('takes links and images without a scheme, outside code blocks', () => {
    const text = '[a](docs/x.md#y) ![i](bench/t.svg) [w](https://e.test/) [m](mailto:a@b.test) [s](#z)\n```md\n[c](nope.md)\n```\n';
    expect(relativeLinks(text)).toEqual([
      { line: 1, target: 'docs/x.md#y' },
      { line: 1, target: 'bench/t.svg' },
      { line: 1, target: '#z' },
    ]);
  });
});

describe('brokenLinks', () => {
  const tree = { 'README.md': '# Top\n## Quick start\n', 'docs/a.md': '# Guide A\n## Part one\n', 'openapi.yaml': 'x', scenarios: '' };
  const files = filesOf(tree);

  it('passes links to existing files and headings, in the same file and across files', () => {
    const text = '# Guide B\n[q](../README.md#quick-start) [p](a.md#part-one) [s](#guide-b) [o](../openapi.yaml) [d](../scenarios) [a](a.md)\n';
    expect(brokenLinks('docs/b.md', text, files)).toEqual([]);
  });

  it('finds a file that is not there (a path left as it was before the move)', () => {
    expect(brokenLinks('docs/b.md', '[o](openapi.yaml)\n', files)).toEqual(['docs/b.md:1: openapi.yaml (no file docs/openapi.yaml)']);
  });

  it('finds an anchor the file has not (a heading that moved to another file)', () => {
    expect(brokenLinks('README.md', 'x\n[p](#part-one)\n', files)).toEqual(["README.md:2: #part-one (no heading 'part-one' in README.md)"]);
    expect(brokenLinks('README.md', '[p](docs/a.md#part-two)\n', files)).toEqual(["README.md:1: docs/a.md#part-two (no heading 'part-two' in docs/a.md)"]);
  });

  it('refuses an anchor into a file that is not markdown', () => {
    expect(brokenLinks('README.md', '[o](openapi.yaml#top)\n', files)).toEqual(['README.md:1: openapi.yaml#top (an anchor in a file that is not markdown)']);
  });
});
