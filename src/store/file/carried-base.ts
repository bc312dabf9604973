// A compaction's new base with the old base's lines carried over (issue 40): every link not changed
// since the old base was written (link-changes.ts) is copied from its line there, byte for byte, in
// the old base's order; the changed ones are serialised from memory, each at its place in the
// table's order: a link updated in place at its old line, a link added since after the old lines.
// So the file is what writeDataChunked writes for the table (the same lines in the same order),
// for what a compaction of a quarter of the base in changes used to cost: serialising every link.
// Under a create load at 1,000 → 200,000 links the compactions took ~a quarter of the mock's CPU.
import type { LinkRecord, LinkTable, MockData } from '../../core/model.js';
import { TurnBudget } from '../../core/turn-budget.js';
import { baseFrame } from './base-frame.js';
import { BaseLinkLines, MORE, NotCarried } from './base-link-lines.js';
import { replaceFile } from './durable-file.js';
import type { LinkChanges } from './link-changes.js';
import { lineText } from './link-line-bytes.js';
import { ReusedBuffer, type ByteSink } from './reused-buffer.js';
import { nextTurn } from './next-turn.js';

/**
 * Writes to `sink` the base of `data` under `generation`, carrying the lines of `base` (the old base,
 * whose later changes `changes` holds, every one of them). Throws NotCarried (base-link-lines.ts)
 * when `base` is not in the writer's layout: what was written is then to be thrown away.
 */
export async function writeCarriedBase(sink: ByteSink, data: MockData, generation: number, base: string, changes: LinkChanges, signal?: AbortSignal): Promise<void> {
  const lines = await BaseLinkLines.open(base);
  try {
    await lines.seekLinks();
    const frame = await baseFrame(data, generation);
    const writer = new LineWriter(new ReusedBuffer(sink), signal);
    await writer.text(frame.before);
    await carryLines(lines, writer, changes, data.links);
    for (const id of changes.added()) {
      const link = data.links.get(id);
      const wait = link && writer.record(id, link);
      if (wait) await wait;
    }
    await writer.text(frame.after(writer.lines > 0));
    await writer.end();
  } finally {
    await lines.close();
  }
}

/**
 * Replaces `base` (through `temporary`: durable-file.ts) with the base writeCarriedBase writes. Whether
 * it was rewritten with its lines carried; false when it is not in the writer's layout (nothing changed then).
 */
export async function replaceCarried(base: string, temporary: string, data: MockData, generation: number, changes: LinkChanges, signal: AbortSignal): Promise<boolean> {
  try {
    await replaceFile(base, temporary, (handle) => writeCarriedBase(handle, data, generation, base, changes, signal));
    return true;
  } catch (error) {
    if (error instanceof NotCarried) return false;
    throw error;
  }
}

/** The old base's lines in order: each copied, or its link as it is now, or nothing (deleted since). */
async function carryLines(lines: BaseLinkLines, writer: LineWriter, changes: LinkChanges, links: LinkTable): Promise<void> {
  for (;;) {
    const line = lines.next();
    if (line === null) return;
    if (line === MORE) {
      await lines.fill();
      continue;
    }
    // Most lines are of links not changed: told by their id's hash, without a string or a lookup.
    const id = changes.mayHold(line.hash) ? lines.id(line) : undefined;
    const kept = id === undefined ? undefined : changes.lineKept(id);
    let wait: Promise<void> | undefined;
    if (kept === undefined) wait = writer.bytes(lines.buffer, line.from, line.to);
    else if (kept) {
      const link = links.get(id as string);
      changes.written(id as string);
      if (link) wait = writer.record(id as string, link);
    }
    // A promise only when the buffer was full or the turn is up: not one per line.
    if (wait) await wait;
  }
}

/** Lines joined by ',' into the reused buffer, the loop let go round after TURN_MS of them (turn-budget.ts); an aborted `signal` stops it there. */
class LineWriter {
  lines = 0;
  private readonly turn: TurnBudget;

  constructor(
    private readonly out: ReusedBuffer,
    signal: AbortSignal | undefined,
  ) {
    this.turn = new TurnBudget(async () => {
      await nextTurn();
      signal?.throwIfAborted();
    });
  }

  async text(text: string): Promise<void> {
    await this.out.put(text);
  }

  /** A line copied from `source` (its '\n' to its JSON's end); a promise only when the buffer is full or the turn is up. */
  bytes(source: Buffer, from: number, to: number): Promise<void> | undefined {
    if (this.lines > 0 && !this.out.add(',')) return this.commaThenBytes(source, from, to);
    if (!this.out.addBytes(source, from, to)) return this.putBytes(source, from, to);
    return this.counted();
  }

  /** A link serialised as writeRecords writes it; a promise as for `bytes`. */
  record(id: string, link: LinkRecord): Promise<void> | undefined {
    const line = `${this.lines > 0 ? ',' : ''}${lineText(id, link)}`;
    if (!this.out.add(line)) return this.putText(line);
    return this.counted();
  }

  end(): Promise<void> {
    return this.out.flush();
  }

  private async commaThenBytes(source: Buffer, from: number, to: number): Promise<void> {
    await this.out.put(',');
    await this.putBytes(source, from, to);
  }

  private async putBytes(source: Buffer, from: number, to: number): Promise<void> {
    await this.out.putBytes(source, from, to);
    await this.counted();
  }

  private async putText(line: string): Promise<void> {
    await this.out.put(line);
    await this.counted();
  }

  private counted(): Promise<void> | undefined {
    this.lines += 1;
    return this.turn.tick();
  }
}
