// The change log's format: a first line naming the generation of the base file it belongs to,
// `{"generation":3}`, then one whole change a line. A reset or restore writes a base of a new
// generation, so a log left over from the state before it (a crash between the base's rename and
// the log's removal) names another generation and is never replayed over the new data. A log
// written before logs had that line, and a base without the field, are of generation 0.
import { existsSync } from 'node:fs';
import { appendFile, readFile, rename, rm, truncate, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isChange, type Change } from '../../core/changes.js';
import { openRegular } from './db-kind.js';
import { syncDirectory } from './durable-file.js';
import { NEWLINE } from './json-bytes.js';

export interface LogContents {
  generation: number;
  /** Empty when the log is of another generation than the one asked for: it was not parsed. */
  changes: Change[];
  /** Its size once a torn last line is cut off. */
  bytes: number;
}

/** More than the longest header line: `{"generation":` and a safe integer. */
const HEADER_MAX_BYTES = 64;

export const isGeneration = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

export const headerLine = (generation: number): string => `${JSON.stringify({ generation })}\n`;

/** The generation a header line names, or undefined when the line is not a header. */
function headerOf(line: string): number | undefined {
  if (!line.startsWith('{"generation":')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    const generation = (value as { generation?: unknown }).generation;
    return Object.keys(value as object).length === 1 && isGeneration(generation) ? generation : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The log's changes if it belongs to generation `current`. A torn last line (a crash mid-append)
 * is cut off the file, never applied; any other line that is not a whole change is an error.
 */
export async function readLog(file: string, current: number): Promise<LogContents | undefined> {
  const buffer = await readWhole(file);
  if (!buffer) return undefined;
  const bytes = buffer.lastIndexOf(NEWLINE) + 1;
  if (bytes < buffer.length) await truncate(file, bytes);
  const lines = buffer.subarray(0, bytes).toString('utf8').split('\n');
  lines.pop(); // '' after the last newline
  const header = lines.length > 0 ? headerOf(lines[0] as string) : undefined;
  const generation = header ?? 0;
  // A log with a header of another generation is stale as a whole: what follows is not read.
  if (header !== undefined && header !== current) return { generation, changes: [], bytes };
  const changes: Change[] = [];
  lines.forEach((line, index) => {
    if (line === '' || (index === 0 && header !== undefined)) return;
    changes.push(parseChange(line, `${file} line ${index + 1}`));
  });
  return { generation, changes, bytes };
}

/** A log is a regular file, or the db is not ours (a FIFO here hung the start: it waits for a writer). */
const openLog = (file: string): Promise<FileHandle | null> => openRegular(file, `its change log ${file}`);

async function readWhole(file: string): Promise<Buffer | undefined> {
  const handle = await openLog(file);
  if (!handle) return undefined;
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

function parseChange(line: string, where: string): Change {
  let change: unknown;
  try {
    change = JSON.parse(line);
  } catch {
    change = undefined;
  }
  if (!isChange(change)) throw new Error(`${where} is not a whole change: ${line.slice(0, 80).replace(/[^\x20-\x7e]+/g, '?')}`);
  return change;
}

/** The generation named by a log's first line (0 without one); undefined when there is no log. */
export async function generationOfLog(file: string): Promise<number | undefined> {
  const handle = await openLog(file);
  if (!handle) return undefined;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEADER_MAX_BYTES), 0, HEADER_MAX_BYTES, 0);
    return headerOf(buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0] ?? '') ?? 0;
  } finally {
    await handle.close();
  }
}

/**
 * Sets the log aside as `oldLog` for a compaction. An `oldLog` already there is left by a compaction
 * that failed: the log is appended to it, so that it keeps every change, in order.
 */
export async function setLogAside(log: string, oldLog: string): Promise<void> {
  if (existsSync(oldLog)) {
    if (existsSync(log)) await appendFile(oldLog, withoutHeader(await readFile(log, 'utf8')));
    await rm(log, { force: true });
  } else if (existsSync(log)) {
    await rename(log, oldLog);
    await syncDirectory(dirname(log));
  }
}

/** The log's text without its header line, to append to another log of the same generation. */
function withoutHeader(text: string): string {
  const end = text.indexOf('\n') + 1;
  return end > 0 && headerOf(text.slice(0, end - 1)) !== undefined ? text.slice(end) : text;
}
