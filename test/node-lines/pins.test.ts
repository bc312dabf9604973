// The Node.js lines CI runs the suite on (issue 42): pinned, checked, said in engines and .ci/run.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';
import { fetchFolder, integrityOf } from './fetch-node.js';
import { NODE_PINS, nodeBinDir, nodeCacheRoot } from './pins.js';

const packageJson = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; scripts: Record<string, string> };

describe('the pinned Node.js lines', () => {
  it('are 22 and 24, each an exact version of its line with a sha512 integrity', () => {
    expect(NODE_PINS.map((pin) => pin.line)).toEqual([22, 24]);
    for (const pin of NODE_PINS) {
      expect(pin.version).toMatch(new RegExp(`^${pin.line}\\.\\d+\\.\\d+$`));
      expect(pin.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    }
  });

  it('engines names the machine line (20) and each pinned line, and nothing untested', () => {
    expect(packageJson.engines.node).toBe('^20.19.0 || ^22.12.0 || ^24.0.0');
    for (const pin of NODE_PINS) expect(packageJson.engines.node).toContain(`^${pin.line}.`);
  });

  it('.ci/run runs the suite on them after the README command, through npm run test:node-lines', () => {
    const commands = readFileSync(join(PACKAGE_ROOT, '.ci/run'), 'utf8').split('\n').filter((line) => line.trim() && !line.trim().startsWith('#'));
    expect(commands.indexOf('npm run test:node-lines')).toBeGreaterThan(commands.indexOf('npm ci && npm test'));
    expect(packageJson.scripts['test:node-lines']).toBe('tsx test/node-lines/run.ts');
  });

  it('the cache: SHORTLINK_MOCK_NODE_CACHE, else XDG_CACHE_HOME, else ~/.cache; a folder per version', () => {
    expect(nodeCacheRoot({ SHORTLINK_MOCK_NODE_CACHE: '/c', XDG_CACHE_HOME: '/x' })).toBe('/c');
    expect(nodeCacheRoot({ SHORTLINK_MOCK_NODE_CACHE: ' ', XDG_CACHE_HOME: '/x' })).toBe('/x/shortlink-mock/node');
    expect(nodeCacheRoot({})).toBe(join(homedir(), '.cache', 'shortlink-mock', 'node'));
    expect(nodeBinDir('/c', NODE_PINS[1]!)).toBe(`/c/${NODE_PINS[1]!.version}/bin`);
  });

  it("a tarball is checked by its sha512, written as npm writes an integrity", () => {
    const dir = mkdtempSync(join(tmpdir(), 'slm-integrity-'));
    try {
      writeFileSync(join(dir, 'a'), 'abc');
      expect(integrityOf(join(dir, 'a'))).toBe('sha512-3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a fetch into a cache that does not exist yet (a fresh machine) makes the cache first', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slm-cache-'));
    try {
      const cacheRoot = join(dir, 'never', 'made');
      const work = fetchFolder(cacheRoot, NODE_PINS[0]!);
      expect(work.startsWith(join(cacheRoot, `.fetch-${NODE_PINS[0]!.version}-`))).toBe(true);
      expect(existsSync(work)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
