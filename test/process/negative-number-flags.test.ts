// A negative number given as a separate word (`--timeout -5`) to every command that takes numbers:
// refused as the mock's own CLI refuses `--port -5` (src/core/parse-flags.ts), one line naming the
// flag and how to write such a value, exit 2; not node:util's "argument is ambiguous". The built
// CLI as a real process. Needs `npm run build` (npm test builds first).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'negative-number-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const contract = ['contract', '--base-url', 'http://127.0.0.1:1', '--api-key', 'demo-key'];
const rows: Array<{ command: string; before: string[]; flag: string; value: string; after: string[] }> = [
  // The mock's own CLI, whose words the commands take.
  { command: '', before: [], flag: '--port', value: '-5', after: [] },
  { command: 'contract', before: contract, flag: '--fuzz-runs', value: '-1', after: [] },
  { command: 'contract', before: contract, flag: '--seed', value: '-1', after: [] },
  { command: 'contract', before: contract, flag: '--timeout-ms', value: '-5', after: [] },
  { command: 'robustness', before: ['robustness'], flag: '--runs', value: '-3', after: ['--', 'true'] },
  { command: 'robustness', before: ['robustness'], flag: '--seed', value: '-1', after: ['--', 'true'] },
  { command: 'robustness', before: ['robustness'], flag: '--timeout', value: '-5', after: ['--', 'true'] },
];

describe.concurrent('a negative number as a separate word', { timeout: 30_000 }, () => {
  it.each(rows)('shortlink-mock $command $flag $value: one line naming the flag, exit 2', async ({ command, before, flag, value, after }) => {
    const result = await runCli([...before, flag, value, ...after], dir);
    const name = command === '' ? 'shortlink-mock' : `shortlink-mock ${command}`;
    const help = command === '' ? '' : ` (see ${name} --help)`;
    expect(result).toMatchObject({ code: 2, stdout: '', stderr: `${name}: ${flag} needs a value, got the option '${value}' (write ${flag}=VALUE if the value starts with '-')${help}\n` });
  });
});
