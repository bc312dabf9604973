// A replace's new base (log-file-store.ts): the data a build gives once the base's temporary file
// is open, written there by this thread, or by the seed's own writer (a worker thread handed the
// lines of the links this thread drew: src/process/seed-base.ts, issue 40), whose count of links
// must be the data's.
import type { FileHandle } from 'node:fs/promises';
import { writeDataChunked } from './chunked-json.js';
import type { BaseTarget, BuiltSeed } from './data-store.js';

/**
 * Builds the data into `handle` (the open temporary file of generation `generation`); throws when
 * the seed's writer wrote other than its links. This thread writes the links in the table's own
 * order, read lazily (data.links.keys): no list of a million ids is made for it (issue 40).
 */
export async function writeBuilt(handle: FileHandle, generation: number, build: (target: BaseTarget) => Promise<BuiltSeed>): Promise<BuiltSeed> {
  const built = await build({ fd: handle.fd, generation });
  const { data, written } = built;
  if (!written) await writeDataChunked(handle, data, data.links.keys(), generation);
  else {
    const count = await written;
    if (count !== data.links.size) throw new Error(`the seed wrote ${count.toLocaleString('en')} links to the file, and holds ${data.links.size.toLocaleString('en')}`);
  }
  return built;
}
