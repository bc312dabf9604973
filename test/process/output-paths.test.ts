// Running the README's commands in a clone must leave nothing for `git status` to show: every file
// they write (JUnit reports, Pact files) is in a path .gitignore ignores, and the commands' own
// defaults write there too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { defaultPactFile } from '../../src/pact/export-command.js';
import { ignoredByGit } from '../helpers/git-ignored.js';

const README = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
/** Every file a README command names as its output: `--junit FILE`, `--out FILE`, `# → FILE`. */
const OUTPUTS = [...new Set([...README.matchAll(/(?:--junit|--out) ((?:reports|pacts)\/[^\s\]`]+)|# → ((?:reports|pacts)\/\S+)/g)].map((match) => match[1] ?? match[2] ?? ''))];

describe("the files the README's commands write", () => {
  it('are found: JUnit reports and Pact files', () => {
    expect(OUTPUTS).toEqual(expect.arrayContaining(['reports/contract.xml', 'reports/drift.xml', 'reports/pact.xml', 'pacts/links-web-shortlink-api.json', 'pacts/web.json']));
  });

  it.each(OUTPUTS)('%s is ignored by .gitignore', (file) => {
    expect(ignoredByGit(file)).toBe(true);
  });

  it("pact export's default file is the README's, in an ignored directory", () => {
    const file = defaultPactFile('links-web', 'shortlink-api');
    expect(file).toBe('pacts/links-web-shortlink-api.json');
    expect(ignoredByGit(file)).toBe(true);
  });
});
