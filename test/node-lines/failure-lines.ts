// What a failed run of the suite printed about its failures, kept to be printed again at the end of
// `npm run test:node-lines`: CI shows the tail of its output, and a failure on the first line run
// scrolls out of it behind the second line's whole run (stop 53's CI: "Node 22: FAILED", no name).
// Kept: Vitest's `FAIL` lines (a file or a test, with the reason's first lines after each) and its `×`
// lines (a failed test in a file's listing). Bounded: a run failing everywhere keeps the first lines.

/** Lines kept per run; more are counted, not kept. */
export const FAILURE_LINES_KEPT = 60;
/** Lines kept after a `FAIL` line: the error's message and where it was thrown. */
const CONTEXT_AFTER_FAIL = 3;
/** A line longer than this is cut: a failure can print a whole response body on one line. */
const LINE_CHARS = 300;

const ansi = /\x1b\[[0-9;]*m/g;

export class FailureLines {
  readonly kept: string[] = [];
  dropped = 0;
  private partial = '';
  private contextLeft = 0;

  /** Feed output as it arrives, in chunks split anywhere. */
  add(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    if (this.partial.length > 64 * 1024) this.partial = this.partial.slice(0, LINE_CHARS);
    for (const line of lines) this.line(line);
  }

  /** The line still unended when the run stopped. */
  end(): void {
    if (this.partial !== '') this.line(this.partial);
    this.partial = '';
  }

  private line(raw: string): void {
    const line = raw.replace(ansi, '').trimEnd();
    if (/^\s*FAIL\s/.test(line)) {
      this.keep(line);
      this.contextLeft = CONTEXT_AFTER_FAIL;
    } else if (/^\s*×\s/.test(line)) {
      this.keep(line);
      this.contextLeft = 0;
    } else if (this.contextLeft > 0 && line.trim() !== '') {
      this.keep(`    ${line.trim()}`);
      this.contextLeft -= 1;
    }
  }

  private keep(line: string): void {
    if (this.kept.length < FAILURE_LINES_KEPT) this.kept.push(line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…` : line);
    else this.dropped += 1;
  }
}
