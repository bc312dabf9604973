// Where an upstream answer is judged (answer-verdict.ts). A small one, inline: it costs less than a
// hop to another thread. A large one (up to MAX_UPSTREAM_BODY, 16 MiB) in a judging thread
// (answer-judge-worker.ts): decoding, the depth scan, JSON.parse and the validator took 100 ms and
// more of the event loop for each one (1 MiB of distinct field names: 100-600 ms in JSON.parse), and
// /__admin/health and every other client waited. The thread reads the bytes where the proxy read
// them, in shared memory (forward.ts): no copy, and the client is sent the same bytes afterwards.
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markCapped } from '../core/journal.js';
import { ResponseChecker } from '../contract/response-checker.js';
import type { OpenApiDocument } from '../core/contract-types.js';
import { answerVerdict, type AnswerVerdict } from './answer-verdict.js';
import { LARGE_ANSWER_BYTES } from './forward.js';
import { decodedText, type UpstreamAnswer } from './response-check.js';
import { ThreadPool } from './thread-pool.js';

/** Judging threads at most: 2, and one core left to the event loop (1 on a 2-core machine). */
export const JUDGE_THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));
/** A judging thread's V8 heap (old generation) in MiB: past it the thread is stopped and replaced. */
export const JUDGE_HEAP_MB = 1024;
/** How long one answer may take in a judging thread. */
export const JUDGE_TIMEOUT_MS = 10_000;

/** What the judging thread is sent: the answer, its bytes shared (not copied). */
export interface JudgeTask {
  operationId: string | null;
  status: number;
  contentType: string | null;
  contentEncoding: string | null;
  bytes: SharedArrayBuffer;
  offset: number;
  length: number;
}

/** What it answers: the verdict, or why it could not make one (an exception while judging). */
export type JudgeReply = { verdict: AnswerVerdict } | { failed: string };

export interface AnswerJudgeOptions {
  threads?: number;
  timeoutMs?: number;
  heapMb?: number;
  /** Answers larger than this (in bytes, raw or decoded) are judged in a thread. */
  inlineMaxBytes?: number;
}

export class AnswerJudge {
  private readonly checker: ResponseChecker;
  private pool?: ThreadPool;
  private readonly inlineMaxBytes: number;

  constructor(
    private readonly document: OpenApiDocument,
    private readonly options: AnswerJudgeOptions = {},
  ) {
    this.checker = new ResponseChecker(document as ConstructorParameters<typeof ResponseChecker>[0]);
    this.inlineMaxBytes = options.inlineMaxBytes ?? LARGE_ANSWER_BYTES;
  }

  /** The verdict on a small answer, made here and now; undefined for a large one (use offThread). */
  inline(operationId: string | null, answer: UpstreamAnswer): AnswerVerdict | undefined {
    if (answer.body.length > this.inlineMaxBytes) return undefined;
    // A compressed answer may be small and decode to 16 MiB: decoded here only up to the same size.
    const text = decodedText(answer, this.inlineMaxBytes);
    if (typeof text !== 'string' && text.tooLarge) return undefined;
    return answerVerdict(this.checker, operationId, answer, text);
  }

  /** The verdict made in a judging thread; never rejects: an answer that could not be judged says so. */
  async offThread(operationId: string | null, answer: UpstreamAnswer): Promise<AnswerVerdict> {
    const { status, contentType, contentEncoding } = answer;
    const { bytes, offset, length } = sharedBytes(answer.body);
    const task: JudgeTask = { operationId, status, contentType, contentEncoding, bytes, offset, length };
    let reply: JudgeReply;
    try {
      reply = (await (this.pool ??= this.startPool()).run(task)) as JudgeReply;
    } catch (error) {
      return unjudged(operationId, `its judging thread was stopped: ${(error as Error).message}`);
    }
    if ('failed' in reply) return unjudged(operationId, reply.failed);
    // The preview came as a copy: marked again, so the journal keeps it as it is (capBody).
    return { violations: reply.verdict.violations, body: markCapped(reply.verdict.body) };
  }

  /** Judging threads running now (0 until the first large answer). */
  get threadsRunning(): number {
    return this.pool?.running ?? 0;
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }

  private startPool(): ThreadPool {
    // The entry beside this module: .js in dist/, .ts when run as TypeScript (the tests).
    return new ThreadPool({
      file: new URL(`./answer-judge-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
      size: this.options.threads ?? JUDGE_THREADS,
      workerData: { document: this.document },
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb ?? JUDGE_HEAP_MB },
      timeoutMs: this.options.timeoutMs ?? JUDGE_TIMEOUT_MS,
    });
  }
}

/**
 * No verdict: a violation that says so, the reason as its evidence (the rule reads the same for
 * every such answer). The answer itself is intact and goes on (or, with --proxy-strict, a 502).
 * Outside the contract there was nothing to judge but the journal's preview: no violation.
 */
function unjudged(operationId: string | null, reason: string): AnswerVerdict {
  if (operationId === null) return { violations: [], body: null };
  return { violations: [{ side: 'response', rule: `the answer to ${operationId} could not be judged`, detail: reason }], body: null };
}

/** The bytes in shared memory: where forward.ts read a large answer, else copied there once. */
function sharedBytes(body: Buffer): { bytes: SharedArrayBuffer; offset: number; length: number } {
  if (body.buffer instanceof SharedArrayBuffer) return { bytes: body.buffer, offset: body.byteOffset, length: body.length };
  const bytes = new SharedArrayBuffer(body.length);
  body.copy(Buffer.from(bytes));
  return { bytes, offset: 0, length: body.length };
}
