// Reading a consumer's Pact file for `pact check`, within bounds, before anything parses it: a
// file is refused (one reason, the command's exit 1) when it is larger than MAX_PACT_BYTES, is not
// UTF-8, or nests deeper than MAX_PACT_DEPTH. Checked on the bytes, so a hostile file costs what
// its bytes cost: without the depth bound a body nested 20,000 levels passed JSON.parse and then
// overflowed the stack of every serialiser and validator after it.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../http/json-depth.js';

/** The largest pact file read: real pacts are kilobytes; 16 MiB is room for bodies as large as the API's. */
export const MAX_PACT_BYTES = 16 * 1024 * 1024;
/**
 * The deepest nesting of a pact file: a body as deep as the mock takes one (MAX_JSON_DEPTH, D28)
 * inside the pact's own levels (interactions, request, body, a V4 wrapper), with room to spare.
 */
export const MAX_PACT_DEPTH = MAX_JSON_DEPTH * 2;
/**
 * The most interactions checked in one file. swagger-mock-validator's time grows faster than the
 * count (measured on 2 shared cores: 100 in ~4 s, 500 in ~15 s, 1,400 in ~39 s): past this bound
 * a file is refused, not checked for minutes. Consumer pacts hold tens to hundreds.
 */
export const MAX_PACT_INTERACTIONS = 1000;

const CHUNK = 64 * 1024;
const MIB = 1024 * 1024;

/** The file's content parsed from JSON, or why it is not read (a sentence naming the file). */
export function readPactJson(file: string): { json: unknown } | { problem: string } {
  let bytes: Buffer | undefined;
  try {
    bytes = readBounded(file);
  } catch (error) {
    return { problem: `cannot read pact file ${file}: ${(error as Error).message}` };
  }
  if (bytes === undefined) return { problem: `${file} is larger than ${MAX_PACT_BYTES / MIB} MiB, the most pact check reads` };
  if (!isUtf8(bytes)) return { problem: `${file} is not UTF-8 text: a Pact file is JSON, which is UTF-8` };
  if (nestsDeeperThan(bytes, MAX_PACT_DEPTH)) return { problem: `${file} is nested more than ${MAX_PACT_DEPTH} levels deep, the most pact check reads` };
  try {
    return { json: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch (error) {
    return { problem: `${file} is not valid JSON: ${(error as Error).message}` };
  }
}

/**
 * The file's bytes, or undefined when there are more than MAX_PACT_BYTES. Read in chunks up to
 * the bound, not by its stated size, so that a pipe or a growing file is bounded too.
 */
function readBounded(file: string): Buffer | undefined {
  const fd = openSync(file, 'r');
  try {
    if (fstatSync(fd).size > MAX_PACT_BYTES) return undefined;
    const chunks: Buffer[] = [];
    let total = 0;
    while (total <= MAX_PACT_BYTES) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const read = readSync(fd, chunk, 0, CHUNK, null);
      if (read === 0) return Buffer.concat(chunks, total);
      chunks.push(chunk.subarray(0, read));
      total += read;
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** A V4 body's JSON text (encoded "JSON" or base64) within the same depth bound as the file. */
export const textNestsTooDeep = (text: string): boolean => nestsDeeperThan(Buffer.from(text, 'utf8'), MAX_PACT_DEPTH);
