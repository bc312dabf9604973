// A file a user names (--fixtures, a scenario file), read only when it is a regular file. A FIFO
// there hung the start silently: a plain open waits for a writer, and a read for data, that never
// come. The file is opened without waiting and checked on the open file (a check of the path
// before the open could be of another file than the one opened), then read.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

/** Not in the flags of every platform (Windows): there, a FIFO cannot be named by a path anyway. */
const NO_WAIT = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The text of `path`; throws, saying why in a few words, when it is not a regular file, or holds more
 * than `maxBytes` (checked on the open file, before anything is read).
 */
export function readRegularFileSync(path: string, maxBytes = Infinity): string {
  const fd = openSync(path, NO_WAIT);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new Error(stats.isDirectory() ? 'it is a directory' : 'it is not a regular file');
    if (stats.size > maxBytes) throw new Error(`it holds ${stats.size} bytes, over the limit of ${maxBytes}`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
