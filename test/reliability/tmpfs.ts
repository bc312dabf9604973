// A small tmpfs mounted for a test (as root: `chmod` does not stop root's writes, so a permission
// trick would prove nothing), filled to its last byte for a full disk. Where tmpfs cannot be
// mounted (no CAP_SYS_ADMIN), the tests that need it fail in CI (CI set) and as root, where they
// must run; only a developer's non-root run skips them, saying why.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const mounts: string[] = [];

export function mountTmpfs(at: string, options: string): void {
  mkdirSync(at, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', at], { stdio: 'pipe' });
  mounts.push(at);
}

export function unmountAll(): void {
  for (const at of mounts.splice(0).reverse()) {
    try {
      execFileSync('umount', [at], { stdio: 'pipe' });
    } catch {
      execFileSync('umount', ['-l', at], { stdio: 'pipe' });
    }
  }
}

/** Can this machine mount a tmpfs (root with CAP_SYS_ADMIN)? Probed once, synchronously. */
const cannotMount: string | undefined = (() => {
  const probe = mkdtempSync(join(tmpdir(), 'slm-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `cannot mount a tmpfs here (${String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim()})`;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();
/** In CI and as root these tests must run: a mount that fails there is a failure, not a skip. */
export const mustRun = !['', '0', 'false'].includes(process.env['CI'] ?? '') || process.getuid?.() === 0;
export const skip = cannotMount !== undefined && !mustRun;
if (skip) console.log(`[tmpfs] SKIPPED (not root, CI not set): ${cannotMount}`);

/** A test of its own in the file that calls it: the mount works where it must. */
export function requireTmpfs(): void {
  describe.runIf(mustRun)('the machine this runs on (CI or root)', () => {
    it('can mount a tmpfs for the full-disk and read-only tests', () => {
      expect(cannotMount, 'mount -t tmpfs, needed by every test below').toBeUndefined();
    });
  });
}

/** Fills the filesystem of `dir` to the last byte; returns the filler's path. */
export function fillDisk(dir: string): string {
  const filler = join(dir, 'filler');
  const fd = openSync(filler, 'w');
  try {
    for (let chunk = 1 << 16; ; ) {
      try {
        writeSync(fd, Buffer.alloc(chunk));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        if (chunk === 1) break;
        chunk = Math.max(1, chunk >> 4);
      }
    }
  } finally {
    closeSync(fd);
  }
  return filler;
}
