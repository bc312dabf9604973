// The README's test command is what CI runs, and it does its own set-up: .ci/run calls exactly that
// command and installs nothing itself; the README says what the e2e set-up needs and does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { BROWSER_ENV, DEFAULT_BROWSER, INSTALL_STEPS, SUDO_INSTALL } from './browser-plan.js';

const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
const ciRun = readFileSync(join(PACKAGE_ROOT, '.ci/run'), 'utf8');
/** The shell lines of .ci/run that run something: no comments, no blank lines. */
const commands = ciRun.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));

describe('the README test command and .ci/run', () => {
  const testCommand = /To install and run every test[^`]*```sh\n([^\n]+)\n```/.exec(readme)?.[1];

  it('the README gives the test command', () => {
    expect(testCommand).toBe('npm ci && npm test');
  });

  it('.ci/run runs exactly that command and installs nothing of its own', () => {
    expect(commands).toContain(testCommand);
    expect(commands.filter((line) => /apt-get|chromium|npm (i|install)\b/.test(line))).toEqual([]);
  });

  it(`the README names ${BROWSER_ENV}, ${DEFAULT_BROWSER}, the install and the command for someone not root`, () => {
    for (const text of [BROWSER_ENV, DEFAULT_BROWSER, INSTALL_STEPS.map((step) => step.join(' ')).join(' && '), SUDO_INSTALL]) expect(readme).toContain(text);
  });
});
