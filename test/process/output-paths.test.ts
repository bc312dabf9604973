// Running the commands of the README and its guides (docs/) in a clone must leave nothing for `git status` to show: every file
// they write (JUnit reports, Pact files) is in a path .gitignore ignores, and the commands' own
// defaults write there too.
import { describe, expect, it } from 'vitest';
import { defaultPactFile } from '../../src/pact/export-command.js';
import { ignoredByGit } from '../helpers/git-ignored.js';
import { markdownFiles, readMarkdown } from '../helpers/guides.js';

const README = markdownFiles().map(readMarkdown).join('\n');
/** Every file a command of the README or a guide names as its output: `--junit FILE`, `--out FILE`, `# → FILE`. */
const OUTPUTS = [...new Set([...README.matchAll(/(?:--junit|--out) ((?:reports|pacts)\/[^\s\]`]+)|# → ((?:reports|pacts)\/\S+)/g)].map((match) => match[1] ?? match[2] ?? ''))];

describe("the files the commands of the README and the guides write", () => {
  it('are found: JUnit reports and Pact files', () => {
    expect(OUTPUTS).toEqual(expect.arrayContaining(['reports/contract.xml', 'reports/drift.xml', 'reports/pact.xml', 'pacts/links-web-shortlink-api.json', 'pacts/web.json']));
  });

  it.each(OUTPUTS)('%s is ignored by .gitignore', (file) => {
    expect(ignoredByGit(file)).toBe(true);
  });

  it("pact export's default file is the Pact guide's, in an ignored directory", () => {
    const file = defaultPactFile('links-web', 'shortlink-api');
    expect(file).toBe('pacts/links-web-shortlink-api.json');
    expect(ignoredByGit(file)).toBe(true);
  });
});
