// makeDirectories: mkdirSync's recursive form without its hang on Node 20 (a recursive mkdir under
// /proc never returned: `--junit /proc/nope/x.xml` spun a core for good; black-box sweep, stop 54).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeDirectories } from '../../src/contract/make-directories.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-make-dirs-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('makeDirectories', () => {
  it('makes every missing parent and answers the first it made, as mkdirSync recursive does', () => {
    expect(makeDirectories(join(dir, 'a', 'b', 'c'))).toBe(join(dir, 'a'));
    expect(statSync(join(dir, 'a', 'b', 'c')).isDirectory()).toBe(true);
  });

  it('answers undefined for a directory that is there', () => {
    expect(makeDirectories(dir)).toBeUndefined();
  });

  it('refuses a path through a file with ENOTDIR, making nothing', () => {
    writeFileSync(join(dir, 'file'), 'x');
    expect(() => makeDirectories(join(dir, 'file', 'sub'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });

  it.runIf(process.platform === 'linux')('refuses a directory under /proc with the kernel\'s error instead of hanging', () => {
    expect(() => makeDirectories('/proc/slm-no-such-dir/x')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
