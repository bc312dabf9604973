// docs/evolve.md's worked example: the command it shows, run on the files it names, prints exactly
// the block the guide shows, and exits 1 as the guide says.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runEvolveCommand } from '../../src/commands/evolve.js';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';

const GUIDE = join(PACKAGE_ROOT, 'docs', 'evolve.md');
const MARKER = '<!-- evolve-example-output';

it("prints the worked example's output exactly, with exit 1", async () => {
  const guide = readFileSync(GUIDE, 'utf8');
  const command = /```sh\nnpx shortlink-mock evolve (--contract docs\/examples\/evolve\/next\.yaml --journal docs\/examples\/evolve\/journal\.json)\n```/.exec(guide);
  expect(command).not.toBeNull();
  const shown = /```text\n([\s\S]*?)\n```/.exec(guide.slice(guide.indexOf(MARKER)))?.[1];
  const out: string[] = [];
  const err: string[] = [];
  // The guide's paths are relative to the package root, as a reader in the repository runs them.
  const argv = (command?.[1] ?? '').split(' ');
  const relative = argv.map((arg) => (arg.startsWith('docs/') ? join(PACKAGE_ROOT, arg) : arg));
  const code = await runEvolveCommand(relative, {}, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
  expect({ code, err }).toEqual({ code: 1, err: [] });
  expect(out.join('\n').replaceAll(`${PACKAGE_ROOT}/`, '')).toBe(shown);
});
