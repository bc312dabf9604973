// The text of a base file around its links' lines, for a writer handed the lines as bytes (a seed's
// worker thread: src/process/seed-base-worker.ts, link-line-bytes.ts). Taken from what
// writeBaseEntries (chunked-json.ts) writes for no link and for one, so that the layout is written in
// one place: the text before the first line is what the two share, the text after the last is what
// follows the one line.
import type { MockData } from '../../core/model.js';
import { writeBaseEntries, type Entry } from './chunked-json.js';
import { lineText } from './link-line-bytes.js';
import type { ByteSink } from './reused-buffer.js';

/** Before the first line, and after the last (`any`: there was a line); lines go between, joined by ','. */
export interface BaseFrame {
  before: string;
  after(any: boolean): string;
}

const PROBE: Entry = ['probe', 0];

export async function baseFrame(head: Omit<MockData, 'links'>, generation: number): Promise<BaseFrame> {
  const [none, one] = await Promise.all([baseText(head, [], generation), baseText(head, [PROBE], generation)]);
  let shared = 0;
  while (shared < none.length && none[shared] === one[shared]) shared += 1;
  const line = lineText(...PROBE);
  // The one file is the other with the line put in where they part: else the layout is not one this knows.
  if (one.slice(shared, shared + line.length) !== line) throw new Error('a base file does not list its links as lines between its head and its end');
  const before = one.slice(0, shared);
  const afterLines = one.slice(shared + line.length);
  const afterNone = none.slice(shared);
  return { before, after: (any) => (any ? afterLines : afterNone) };
}

/** The text writeBaseEntries writes for these links (a few: it is all held). */
export async function baseText(head: Omit<MockData, 'links'>, entries: readonly Entry[], generation: number): Promise<string> {
  const parts: Buffer[] = [];
  const sink: ByteSink = {
    write: async (buffer, offset, length) => {
      parts.push(Buffer.from(buffer.subarray(offset, offset + length)));
      return { bytesWritten: length };
    },
  };
  await writeBaseEntries(sink, head, entries, generation);
  return Buffer.concat(parts).toString('utf8');
}
