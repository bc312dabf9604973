// junitPathProblem: whether --junit FILE can be written, asked before the run, creating nothing.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { junitPathProblem } from '../../src/contract/junit-path.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-junit-path-'));
  writeFileSync(join(dir, 'old.xml'), '<old/>');
  writeFileSync(join(dir, 'a-file'), 'not a directory');
  mkdirSync(join(dir, 'a-directory'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('junitPathProblem', () => {
  it.each([
    ['a new file in an existing directory', 'new.xml'],
    ['an existing file (overwritten after the run)', 'old.xml'],
    ['a file under directories still to be created', join('ci', 'reports', 'contract.xml')],
  ])('accepts %s', (_name, path) => {
    expect(junitPathProblem(join(dir, path))).toBeUndefined();
  });

  it.each([
    ['a directory', 'a-directory', 'a-directory is a directory'],
    ['a path under a file', join('a-file', 'x.xml'), 'a-file is not a directory'],
    ['a path deeper under a file', join('a-file', 'reports', 'x.xml'), 'a-file is not a directory'],
  ])('refuses %s, naming the part that is in the way', (_name, path, reason) => {
    expect(junitPathProblem(join(dir, path))).toBe(join(dir, reason));
  });

  it('creates nothing while it checks', () => {
    const before = readdirSync(dir).sort();
    for (const path of ['new.xml', join('ci', 'reports', 'contract.xml'), join('a-file', 'x.xml')]) junitPathProblem(join(dir, path));
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('resolves a relative path against the working directory', () => {
    expect(junitPathProblem('.')).toBe(`${process.cwd()} is a directory`);
  });
});
