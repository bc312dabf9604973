// What makes a file a shortlink-mock db: every base file starts with `"kind": "shortlink-mock-db"`,
// and one written before that marker (format 1) has `"formatVersion": 1` and our top-level fields.
// Anything else (a package.json, another tool's JSON, a text file, a directory) is not ours: the
// mock neither reads it nor overwrites it, not even for a reset, which would silently destroy it.
import { isAscii } from 'node:buffer';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

export const DB_KIND = 'shortlink-mock-db';

export class NotOurFileError extends Error {
  override name = 'NotOurFileError';
}

// The starts of our files as the writers lay them out (the marker, or formatVersion 1, first): a
// file of ours cut short by a crash or a full disk is damaged data of ours, not another tool's file.
const MARKED_START = /^\s*\{\s*"kind"\s*:\s*"shortlink-mock-db"\s*,/;
const FORMAT_1_START = /^\s*\{\s*"formatVersion"\s*:\s*1\s*,/;

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The file's text; null when there is no file. Throws NotOurFileError for a directory, a device, ... */
export async function readDbText(file: string): Promise<string | null> {
  // Writes do not go through lowdb: its writer renames a temporary file without fsync, and a db
  // must survive power loss (src/store/file/durable-file.ts).
  const handle = await openRegular(file, 'it');
  if (!handle) return null;
  let bytes: Buffer;
  try {
    bytes = await handle.readFile();
  } finally {
    await handle.close();
  }
  return textOf(bytes);
}

/**
 * The file's bytes as text. A file of ASCII only (what the writers give, but for a user's own
 * non-ASCII text) is decoded as latin1, the same characters: a copy instead of a UTF-8 transcode,
 * and Node keeps a text of over 1 MB outside the V8 heap, so the heap need not grow by the file's
 * size before the parse (200,000 links: heapTotal 159 MiB after the parse against 223 MiB, and the
 * read and parse about a fifth faster; issue 40). The text is freed with its string, as before.
 */
function textOf(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** Not in the flags of every platform (Windows): there, a FIFO cannot be named by a path anyway. */
const NO_WAIT = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The file opened for reading; null when there is none. Throws NotOurFileError, naming it as `what`,
 * when it is not a regular file. Opened without waiting, then checked on the open file: a FIFO's
 * plain open waits for a writer that never comes (the start hung silently), and a check of the
 * path before the open could be of another file than the one opened.
 */
export async function openRegular(file: string, what: string): Promise<FileHandle | null> {
  let handle: FileHandle;
  try {
    handle = await open(file, NO_WAIT);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'EISDIR') throw new NotOurFileError(`${what} is a directory`);
    throw error;
  }
  const stats = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  if (stats.isFile()) return handle;
  await handle.close();
  throw new NotOurFileError(`${what} ${stats.isDirectory() ? 'is a directory' : 'is not a regular file'}`);
}

/** Why a parsed file is not ours, or undefined when it is. */
export function notOursBecause(value: unknown): string | undefined {
  if (!isObject(value)) return 'it is JSON, but not an object';
  if ('kind' in value) return value['kind'] === DB_KIND ? undefined : `its "kind" is not "${DB_KIND}"`;
  const format1 = value['formatVersion'] === 1 && isObject(value['defaultDomain']) && Array.isArray(value['accounts']) && isObject(value['tags']) && isObject(value['links']);
  return format1 ? undefined : `a JSON object without "kind": "${DB_KIND}"`;
}

/**
 * The text parsed, when it is a db of ours. Text that does not parse is ours (damaged) only when
 * it starts like one of our files; otherwise it is another tool's file: NotOurFileError.
 */
export function parseOurs(text: string): object {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (MARKED_START.test(text) || FORMAT_1_START.test(text)) throw error;
    throw new NotOurFileError('it is not JSON');
  }
  const why = notOursBecause(value);
  if (why) throw new NotOurFileError(why);
  return value as object;
}

/** How much of a file's start is read to find our marker before the whole of it (it is in the first line). */
const HEAD_BYTES = 4096;

/**
 * Before overwriting a file unread (a reset): passes when there is no file, an empty one, or a db of
 * ours, damaged or not; throws NotOurFileError otherwise. A file that starts with our marker is ours
 * whatever follows (damaged or not), so its start alone decides: a reset over 1,000,000 links no
 * longer reads and parses 326 MiB only to overwrite them (~7 s). Anything else is read whole, as before.
 */
export async function requireOurs(file: string): Promise<void> {
  if (await startsMarked(file)) return;
  const text = await readDbText(file);
  if (text === null || text.trim() === '') return;
  try {
    parseOurs(text);
  } catch (error) {
    if (error instanceof NotOurFileError) throw error;
  }
}

/** Whether the file's first HEAD_BYTES start like a db the writers marked; false when there is no file. */
async function startsMarked(file: string): Promise<boolean> {
  const handle = await openRegular(file, 'it');
  if (!handle) return false;
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    return MARKED_START.test(head.toString('latin1', 0, bytesRead));
  } finally {
    await handle.close();
  }
}
