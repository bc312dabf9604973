// The base file: the whole data as readable JSON, marked as ours (src/store/file/db-kind.ts), plus the
// generation of the state it holds (a top-level field, which the logs beside it must name:
// src/store/file/change-log.ts). The marker and the generation are the store's: they are taken out of the
// data on reading, so snapshots and the API never see them.
import { DATA_FORMAT_VERSION, type MockData } from '../../core/model.js';
import { SplitLinkTable } from '../../core/link-table.js';
import { isGeneration } from './change-log.js';
import { writeDataChunked } from './chunked-json.js';
import { isObject, parseOurs, readDbText } from './db-kind.js';
import { CheckedLoad } from './checked-state.js';
import { shapeProblem } from './data-shape.js';
import { readRecordWise } from './db-records.js';
import { replaceFile } from './durable-file.js';

/** Written before the marker and the generations' check of the logs; read, and rewritten at the first write. */
export const FORMAT_1 = 1;

export interface Base {
  data: MockData;
  /** 0 for a file written before bases had one. */
  generation: number;
  /** The formatVersion the file is written in; its data reads as the current format. */
  format: number;
  /**
   * The links checked and indexed as they were read (src/store/file/checked-state.ts), when the
   * file was read record by record and its head has the current shape: for the data as read.
   */
  load?: CheckedLoad;
}

/**
 * The base, parsed; null when there is no file. Throws NotOurFileError for a file that is not a db
 * of ours. The shape of the data is checked by the caller.
 */
export async function readBase(file: string): Promise<Base | null> {
  let load: CheckedLoad | undefined;
  const read = await readRecordWise(file, undefined, (head) => (load = shapeProblem(head) === undefined ? new CheckedLoad(head as unknown as MockData) : undefined));
  if (read === null) return null;
  const parsed = read?.value ?? (await parsedText(file));
  if (parsed === null) return null;
  const { kind: _kind, generation = 0, ...data } = parsed as MockData & { kind?: unknown; generation?: unknown };
  if (!isGeneration(generation)) throw new Error(`its generation is ${String(JSON.stringify(generation))}, not a whole number`);
  const format = data.formatVersion;
  if (format !== FORMAT_1 && format !== DATA_FORMAT_VERSION) throw new Error(`its formatVersion is ${String(JSON.stringify(format))}; this shortlink-mock reads ${FORMAT_1} and ${DATA_FORMAT_VERSION}`);
  // Replaying the logs needs these two; the rest of the shape is the caller's to check.
  if (!isObject(data.tags) || !isObject(data.links)) throw new Error('its tags or links are missing');
  if (format === FORMAT_1) data.formatVersion = DATA_FORMAT_VERSION;
  // A file read whole (another layout) holds its links in a plain object: the data's are a table.
  data.links = SplitLinkTable.of(data.links);
  if (!read) return { data, generation, format };
  return read.sinkKept && load ? { data, generation, format, load } : { data, generation, format };
}

/** A file in another layout than the writer's: its whole text, parsed at once; null when it is gone. */
async function parsedText(file: string): Promise<object | null> {
  const text = await readDbText(file);
  if (text === null) return null;
  // An empty file must not pass for "no data yet": that would re-seed over it without --reset.
  if (text.trim() === '') throw new Error('it is empty');
  return parseOurs(text);
}

/**
 * Replaces the base atomically and durably, through `temporary`, writing the links `linkIds` names,
 * in the current format. An aborted `signal` stops the write and leaves the old base in place.
 */
export async function writeBase(file: string, temporary: string, base: Omit<Base, 'format'>, linkIds: Iterable<string>, signal?: AbortSignal): Promise<void> {
  await replaceFile(file, temporary, (handle) => writeDataChunked(handle, base.data, linkIds, base.generation, signal));
}
