// Replacing a whole file so that a crash leaves the old one or the new one, never part of either,
// and so that the new one is still there after a power cut once the call resolves: written to a
// temporary file beside it, fsynced, renamed over it, and the directory fsynced (a rename is a
// change of the directory, which the file's own fsync does not cover).
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function replaceFile(target: string, temporary: string, write: (handle: FileHandle) => Promise<void>): Promise<void> {
  try {
    const handle = await open(temporary, 'w');
    try {
      await write(handle);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    // A half-written temporary file would hold the space a full disk needs back.
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(target));
}

/** Makes the creations, renames and removals of files in `dir` durable. */
export async function syncDirectory(dir: string): Promise<void> {
  // Windows cannot open a directory to fsync it; NTFS journals its renames itself.
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
