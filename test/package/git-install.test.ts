// The toolkit guide's git-URL install (docs/toolkit.md; the README shows the same line), run as written (issue 25, item 1): the package is not on the npm
// registry, so a team installs it from its copy of the repository. The URL here is a local git
// repository holding this working tree's files (committed, as a clone would have them; dist/ is
// not among them), so npm must clone it, install its dev dependencies and build dist/ in its clone
// (the `preprepare` script), then install the result. The installed package has no script that
// npm 11's install-script policy would ask the consumer to approve.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { NPM_TEST_ENV, README_GIT_URL, readmeInstallCommands, runReadmeCommands } from './readme-install.js';
import { runCommand, type CommandResult } from './run-command.js';
import { npmCacheIn, scratchDir } from './scratch.js';

const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
/** npm's clone installs every dev dependency from the cache and builds: about 30 s on an idle machine. */
const INSTALL_LIMIT_MS = 480_000;
const GIT_LIMIT_MS = 30_000;

let scratch: string;
let project: string;
let run: CommandResult[] = [];

/** A git repository at `dir` with the working tree's files (tracked, or new and not ignored), committed. */
async function repositoryOfWorkingTree(dir: string): Promise<void> {
  const listed = await runCommand('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], PACKAGE_ROOT, GIT_LIMIT_MS);
  expect(listed.code, listed.transcript).toBe(0);
  for (const file of listed.stdout.split('\0').filter((path) => path !== '' && existsSync(join(PACKAGE_ROOT, path)))) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(PACKAGE_ROOT, file), join(dir, file));
  }
  const identity = ['-c', 'user.name=pack test', '-c', 'user.email=pack-test@example.invalid'];
  for (const args of [['init', '-q'], ['add', '-A'], [...identity, 'commit', '-q', '-m', 'the working tree']]) {
    const git = await runCommand('git', args, dir, GIT_LIMIT_MS);
    expect(git.code, git.transcript).toBe(0);
  }
}

beforeAll(async () => {
  scratch = scratchDir('shortlink-mock-git-');
  const repository = join(scratch, 'shortlink-mock');
  mkdirSync(repository);
  await repositoryOfWorkingTree(repository);
  project = join(scratch, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'project', private: true, type: 'module' }));
  const commands = readmeInstallCommands().git.map((command) => ({ ...command, line: command.line.replace(README_GIT_URL, `file://${repository}`) }));
  // npm clones into its cache's temporary folder: that one in the scratch folder too (scratch.ts).
  const env = { ...NPM_TEST_ENV, npm_config_cache: npmCacheIn(scratch) };
  run = await runReadmeCommands([...commands, { line: 'npx shortlink-mock --version', where: 'project' }], { clone: repository, project }, INSTALL_LIMIT_MS, env);
}, INSTALL_LIMIT_MS + 2 * GIT_LIMIT_MS);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("the toolkit guide's git-URL install", () => {
  test('is one npm install -D of a git+https URL, in the project', () => {
    expect(readmeInstallCommands().git).toEqual([{ line: `npm install -D git+${README_GIT_URL}`, where: 'project' }]);
  });

  test('installs a built package whose CLI answers npx shortlink-mock --version', () => {
    for (const result of run) expect(result.code, result.transcript).toBe(0);
    expect(run.at(-1)?.stdout.trim()).toBe(version);
    expect(existsSync(join(project, 'node_modules', 'shortlink-mock', 'dist', 'src', 'index.d.ts'))).toBe(true);
  });

  test('leaves the consumer no install script of ours to approve', () => {
    expect(run[0]?.transcript).toContain('npm install -D git+file://');
    expect(run[0]?.stderr).not.toMatch(/install-scripts\s+shortlink-mock@/);
  });
});
