// Replacing a whole file so that a crash leaves the old one or the new one, never part of either,
// and so that the new one is still there after a power cut once the call resolves: written to a
// temporary file beside it, fsynced, renamed over it, and the directory fsynced (a rename is a
// change of the directory, which the file's own fsync does not cover).
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function replaceFile(target: string, temporary: string, write: (handle: FileHandle) => Promise<void>): Promise<void> {
  // Opened before anything changes: once the rename is done, no step may fail for want of a file
  // descriptor (EMFILE) and report as failed a replace that is in place (issue 23, item 2).
  const directory = await openDirectory(dirname(target));
  try {
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
    await directory?.sync();
  } finally {
    // Closing a descriptor opened for reading loses nothing, whatever it answers.
    await directory?.close().catch(() => undefined);
  }
}

/** Makes the creations, renames and removals of files in `dir` durable. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await openDirectory(dir);
  try {
    await handle?.sync();
  } finally {
    await handle?.close();
  }
}

/** The directory, opened to fsync it; undefined on Windows, which cannot (NTFS journals its renames itself). */
function openDirectory(dir: string): Promise<FileHandle | undefined> {
  return process.platform === 'win32' ? Promise.resolve(undefined) : open(dir, 'r');
}
