// The base file: the whole data as readable lowdb JSON, plus the generation of the state it holds
// (a top-level field, which the logs beside it must name: src/store/change-log.ts). The generation
// is the store's: it is taken out of the data on reading, so snapshots and the API never see it.
import { readFile } from 'node:fs/promises';
import type { MockData } from '../core/model.js';
import { isGeneration } from './change-log.js';
import { writeDataChunked } from './chunked-json.js';
import { replaceFile } from './durable-file.js';

export interface Base {
  data: MockData;
  /** 0 for a file written before bases had one. */
  generation: number;
}

/** The base, parsed; null when there is no file. The shape of the data is checked by the caller. */
export async function readBase(file: string): Promise<Base | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  // `null` must not pass for "no data yet": that would re-seed over the file.
  if (parsed === null) throw new Error('it holds null');
  if (typeof parsed !== 'object' || !('generation' in parsed)) return { data: parsed as MockData, generation: 0 };
  const { generation, ...data } = parsed as MockData & { generation: unknown };
  if (!isGeneration(generation)) throw new Error(`its generation is ${String(JSON.stringify(generation))}, not a whole number`);
  return { data, generation };
}

/** Replaces the base atomically and durably, through `temporary`, writing the links `linkIds` names. */
export async function writeBase(file: string, temporary: string, base: Base, linkIds: Iterable<string>): Promise<void> {
  await replaceFile(file, temporary, (handle) => writeDataChunked(handle, base.data, linkIds, base.generation));
}
