// A file read up to a bound, in chunks up to one past it (a growing file or a pipe is bounded
// too, not only what its size says). Throws an Error whose message is one line naming the file.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const CHUNK = 64 * 1024;

export function readFileWithin(file: string, maxBytes: number, what: string): Buffer {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new Error(`cannot read ${file}: ${((error as Error).message ?? '').split('\n')[0]}`);
  }
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${file} is not a file`);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const read = readSync(fd, chunk, 0, CHUNK, null);
      if (read === 0) return Buffer.concat(chunks, total);
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) throw new Error(`${file} is larger than ${maxBytes / 1024 / 1024} MiB, the most evolve reads of ${what}`);
    }
  } finally {
    closeSync(fd);
  }
}
