// The install commands of the README's "Use it from your tests", read from the README itself so the
// package tests run what a user copies: the git-URL block and the tarball block, each command with
// where it runs (its comment says "in the clone" or it runs in the user's project). The git URL
// is a placeholder the tests swap for a local clone's; nothing else is changed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { runCommand, type CommandResult } from './run-command.js';

export const README_GIT_URL = 'https://git.example.com/your-team/shortlink-mock.git';

export interface ReadmeCommand {
  /** The command as the README shows it, its comment removed. */
  line: string;
  where: 'clone' | 'project';
}

export const README = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');

function installBlocks(): string[] {
  const start = README.indexOf('**Install it: it is not published on npm.**');
  const section = README.slice(start, README.indexOf('```ts', start));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, block]) => block ?? '');
}

function commands(block: string): ReadmeCommand[] {
  return block
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [command = '', comment = ''] = line.split(/\s+# /, 2);
      return { line: command.trim(), where: comment.startsWith('in the clone') ? 'clone' : 'project' };
    });
}

/** The two blocks: [git URL install, pack and tarball install]. */
export function readmeInstallCommands(): { git: ReadmeCommand[]; tarball: ReadmeCommand[] } {
  const [git = '', tarball = ''] = installBlocks();
  return { git: commands(git), tarball: commands(tarball) };
}

/**
 * npm's settings for the tests' installs, as variables so the command lines stay the README's: the
 * cache first (the repository's own `npm ci` filled it), no audit or funding requests, and CI=true
 * (a dependency's `postinstall: patch-package` then fails, as in a CI install).
 */
export const NPM_TEST_ENV: NodeJS.ProcessEnv = { CI: 'true', npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };

/** Runs the commands in order, each through `sh -c` in its directory; stops at the first that fails. */
export async function runReadmeCommands(
  commands: ReadmeCommand[],
  dirs: Record<ReadmeCommand['where'], string>,
  limitMs: number,
  env: NodeJS.ProcessEnv,
): Promise<CommandResult[]> {
  const results: CommandResult[] = [];
  for (const command of commands) {
    const result = await runCommand('sh', ['-c', command.line], dirs[command.where], limitMs, env);
    results.push(result);
    if (result.code !== 0) break;
  }
  return results;
}
