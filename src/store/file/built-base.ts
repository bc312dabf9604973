// A replace's new base (log-file-store.ts): the data a build gives once the base's temporary file
// is open, written there by this thread, or by the seed's own writer (a worker thread handed the
// lines of the links this thread drew: src/process/seed-base.ts, issue 40), whose count of links
// must be the data's.
import type { FileHandle } from 'node:fs/promises';
import { linkBatches } from '../../core/link-batches.js';
import { writeDataChunked } from './chunked-json.js';
import type { BaseTarget, BuiltSeed } from './data-store.js';
import { LinkIds } from './link-ids.js';

export interface BuiltBase {
  built: BuiltSeed;
  /** The keys of the built data's links, for the store's next compaction. */
  linkIds: LinkIds;
}

/** Builds the data into `handle` (the open temporary file of generation `generation`); throws when the seed's writer wrote other than its links. */
export async function writeBuilt(handle: FileHandle, generation: number, build: (target: BaseTarget) => Promise<BuiltSeed>): Promise<BuiltBase> {
  const built = await build({ fd: handle.fd, generation });
  const { data, written } = built;
  const held = await idsOf(built).catch(async (error: unknown) => {
    // The file is closed once this returns: not before the seed's own writer is done with it.
    await written?.catch(() => undefined);
    throw error;
  });
  if (!written) await writeDataChunked(handle, data, held.ids, generation);
  else {
    const count = await written;
    if (count !== held.count) throw new Error(`the seed wrote ${count.toLocaleString('en')} links to the file, and holds ${held.count.toLocaleString('en')}`);
  }
  return { built, linkIds: held.ids };
}

/**
 * The ids of the data's links: those the seed collected as it keyed them, or a batch per turn:
 * Object.keys of 1,000,000 links was one long step, and so was the growth of one Set of them
 * (issue 40: link-ids.ts). With their count, which a seed's writer must have written.
 */
async function idsOf({ data, linkIds }: BuiltSeed): Promise<{ ids: LinkIds; count: number }> {
  if (linkIds) return { ids: new LinkIds(data.links, linkIds), count: linkIds.length };
  const ids: string[] = [];
  for (const batch of linkBatches(data)) {
    // Each key once: kept batches hold each of the data's links once (keepLinkBatches), and so do its values.
    for (const link of batch) ids.push(link.id);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { ids: new LinkIds(data.links, ids), count: ids.length };
}
