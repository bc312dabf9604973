// Writes the whole data as readable JSON without blocking the event loop: records are
// stringified one by one and written in batches, each write yielding to the loop, so a file of
// 100,000 links never stalls request handling the way one JSON.stringify of 40 MB does.
import type { FileHandle } from 'node:fs/promises';
import type { MockData } from '../core/model.js';

const RECORDS_PER_WRITE = 1000;

export async function writeDataChunked(handle: FileHandle, data: MockData): Promise<void> {
  const head = {
    formatVersion: data.formatVersion,
    seed: data.seed,
    defaultDomain: data.defaultDomain,
    accounts: data.accounts,
  };
  const headText = JSON.stringify(head, null, 2);
  await handle.write(`${headText.slice(0, -2)},\n`);
  await writeRecords(handle, 'tags', Object.entries(data.tags), false);
  await writeRecords(handle, 'links', Object.entries(data.links), true);
  await handle.write('}\n');
}

/** `"name": {` then one record a line, the entries taken once up front (a fuzzy snapshot: the change log fixes it up). */
async function writeRecords(handle: FileHandle, name: string, entries: [string, unknown][], last: boolean): Promise<void> {
  await handle.write(`  ${JSON.stringify(name)}: {`);
  for (let start = 0; start < entries.length; start += RECORDS_PER_WRITE) {
    const lines = entries.slice(start, start + RECORDS_PER_WRITE).map(([id, record]) => `\n    ${JSON.stringify(id)}: ${JSON.stringify(record)}`);
    await handle.write(`${start === 0 ? '' : ','}${lines.join(',')}`);
  }
  await handle.write(`${entries.length ? '\n  ' : ''}}${last ? '' : ','}\n`);
}
