// The judging thread's entry (answer-judge.ts): the contract compiled once, from the document the
// mock was started with, then one verdict for each answer it is sent. Only here, off the event
// loop, is a large answer decoded, scanned, parsed and validated.
import { parentPort, workerData } from 'node:worker_threads';
import { ResponseChecker } from '../contract/response-checker.js';
import type { JudgeReply, JudgeTask } from './answer-judge.js';
import { answerVerdict } from './answer-verdict.js';
import { decodedText } from './response-check.js';

const { document } = workerData as { document: ConstructorParameters<typeof ResponseChecker>[0] };
const checker = new ResponseChecker(document);

parentPort?.on('message', (task: JudgeTask) => {
  const answer = { status: task.status, contentType: task.contentType, contentEncoding: task.contentEncoding, body: Buffer.from(task.bytes, task.offset, task.length) };
  let reply: JudgeReply;
  try {
    reply = { verdict: answerVerdict(checker, task.operationId, answer, decodedText(answer)) };
  } catch (error) {
    reply = { failed: `judging it failed: ${(error as Error).message}` };
  }
  parentPort?.postMessage(reply);
});
