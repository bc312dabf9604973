// The change log's append on a create: all of its bytes written to the log's descriptor, then (when
// durable) an fdatasync, as callbacks inside one promise. Through FileHandle each of the two was
// an async method over an async function, a promise from the binding and an await (`fsCall`:
// a reference taken and dropped around it), on every commit: per create with one client, the
// store's largest share of a create's instructions above the ceiling (issue 40, bench/create-cost.md).
// The descriptor stays the FileHandle's: the store opens and closes it (log-appender.ts), and never
// closes it while an append runs (both happen inside its one write queue, write-queue.ts).
// Called through the `fs` object (not named imports), so that tests can put a fault in its way.
import fs from 'node:fs';

/** Writes all of `bytes` at the end of the file open for appending on `fd` (short writes continued), then fdatasyncs it if `durable`. */
export function appendToFd(fd: number, bytes: Uint8Array, durable: boolean, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const synced = (error: NodeJS.ErrnoException | null): void => (error ? reject(error) : resolve());
    const writeFrom = (at: number): void => {
      fs.write(fd, bytes, at, bytes.length - at, null, (error, written) => {
        if (error) return reject(error);
        // A write that takes nothing would take nothing again: fail (the caller cuts the log back).
        if (written === 0) return reject(new Error(`the change log ${name} took no bytes of a write`));
        if (at + written < bytes.length) return writeFrom(at + written);
        if (!durable) return resolve();
        fs.fdatasync(fd, synced);
      });
    };
    writeFrom(0);
  });
}
