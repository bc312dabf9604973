// The layers of src/ (core ← store, contract ← server ← process) and no import circle, checked by
// dependency-cruiser with the rules of .dependency-cruiser.cjs. The same rules run on two small
// fixture trees: one with a planted break of each kind (core → store, core → node:fs, store →
// server, server → process, robustness → commands, a circle), which must be reported exactly, and one with only legal
// imports, which must pass; so the check is shown to fail, not only to pass. And the root of src/
// holds only cli.ts and index.ts, every folder a README.md.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURES = join(ROOT, 'test', 'architecture', 'fixtures');
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration;
const tsConfig = extractTSConfig(join(ROOT, 'tsconfig.json'));
// A cruise of src/ reads ~260 modules: a few seconds, more on a busy machine.
const CRUISE_MS = 60_000;

interface Break {
  rule: string;
  from: string;
  to: string;
}

/** Every rule broken under `baseDir`/src, as rule, from, to (a circle: the whole way round), sorted. */
async function breaks(baseDir: string): Promise<Break[]> {
  const { output } = await cruise(['src'], { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden }, baseDir }, undefined, { tsConfig });
  const { violations } = (output as ICruiseResult).summary;
  const found = violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.cycle ? v.cycle.map((step) => step.name).join(' → ') : v.to }));
  return found.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

const shown = (found: Break[]): string => found.map((b) => `${b.rule}: ${b.from} → ${b.to}`).join('\n');

describe('the layers of src/', () => {
  it('breaks no layer rule and has no import circle', async () => {
    const found = await breaks(ROOT);
    expect(found, shown(found)).toEqual([]);
  }, CRUISE_MS);

  it('reports each planted break: core → store, core → node:fs, store → server, server → process, robustness → commands, a circle', async () => {
    expect(await breaks(join(FIXTURES, 'broken'))).toEqual([
      { rule: 'core-imports-only-core', from: 'src/core/links.ts', to: 'src/store/file.ts' },
      { rule: 'core-no-io', from: 'src/core/io.ts', to: 'fs' },
      { rule: 'no-circular', from: 'src/http/ping.ts', to: 'src/http/pong.ts → src/http/ping.ts' },
      { rule: 'nothing-imports-process', from: 'src/http/handler.ts', to: 'src/process/config.ts' },
      { rule: 'only-the-cli-imports-commands', from: 'src/robustness/options.ts', to: 'src/commands/admin-command.ts' },
      { rule: 'store-imports-only-core', from: 'src/store/up.ts', to: 'src/http/ping.ts' },
    ]);
  }, CRUISE_MS);

  it('passes a tree whose imports all go down: process → all, cli → commands → robustness → toolkit, server → core, store → core', async () => {
    expect(await breaks(join(FIXTURES, 'clean'))).toEqual([]);
  }, CRUISE_MS);
});

describe('the folders of src/', () => {
  const SRC = join(ROOT, 'src');
  const folders = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'console')
      .flatMap((entry) => [join(dir, entry.name), ...folders(join(dir, entry.name))]);

  it('keep only the CLI entry and the package face at the root', () => {
    const loose = readdirSync(SRC, { withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.endsWith('.ts'));
    expect(loose.map((entry) => entry.name).sort()).toEqual(['cli.ts', 'index.ts']);
  });

  it('each have a README.md: what lives there and what it may import', () => {
    const without = [SRC, ...folders(SRC)].filter((dir) => !existsSync(join(dir, 'README.md')));
    expect(without).toEqual([]);
  });
});
