// The bounds of the MCP server (docs/options.md, Limits): what one message, one call and one answer
// may cost, whichever transport (stdio, /__admin/mcp) carries them.

const KiB = 1024;

/** The largest MCP message read, over stdio or Streamable HTTP: past it, the message is refused unread. */
export const MCP_MAX_MESSAGE_BYTES = 4 * KiB * KiB;

/** Tool calls running at once in one server (all of /__admin/mcp's requests together): the next one is a tool error saying so. */
export const MCP_MAX_CONCURRENT_CALLS = 16;

/** Journal entries one `journal` call returns at most (the newest). */
export const MCP_JOURNAL_MAX_ENTRIES = 100;

/** The most one `journal` answer holds, serialised: older entries are left out past it, and the answer says so. */
export const MCP_JOURNAL_MAX_BYTES = 256 * KiB;

/** `check_contract`: failures listed at most (the summary counts them all), each reason cut to MCP_FAILURE_REASON_CHARS. */
export const MCP_MAX_FAILURES = 200;
export const MCP_FAILURE_REASON_CHARS = 2_000;

/** `check_contract`: fuzzed requests at most (the suite's default is 200). */
export const MCP_MAX_FUZZ_RUNS = 1_000;

/** Counts the tool calls in flight; a call past the bound is refused at once rather than queued. */
export class CallLimiter {
  private running = 0;

  constructor(readonly max: number = MCP_MAX_CONCURRENT_CALLS) {}

  /** Runs `call` when a place is free; undefined (nothing run) when `max` calls are in flight. */
  async run<T>(call: () => Promise<T>): Promise<T | undefined> {
    if (this.running >= this.max) return undefined;
    this.running += 1;
    try {
      return await call();
    } finally {
      this.running -= 1;
    }
  }
}
