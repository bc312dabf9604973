// The judging thread from the built package (dist/): its entry is found beside the compiled module,
// and a process that judged a large answer and never closed its judge still exits by itself (an
// idle thread does not hold it), as does a mock in proxy mode stopped after a large answer.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/contract/package-files.js';

const DIST = join(PACKAGE_ROOT, 'dist', 'src');
const EXIT_LIMIT_MS = 20_000;

/** Runs an ES module script with node; resolves with its exit code and output, or rejects past the limit. */
function runScript(script: string): Promise<{ code: number | null; output: string }> {
  if (!existsSync(join(DIST, 'proxy', 'answer-judge-worker.js'))) throw new Error('dist/ is missing the judging thread: run `npm run build` first (npm test does)');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: PACKAGE_ROOT });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running after ${EXIT_LIMIT_MS} ms: ${output}`));
    }, EXIT_LIMIT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const module = (path: string): string => JSON.stringify(pathToFileURL(join(DIST, path)).href);

it('from dist/, a large answer is judged in the thread, and the process exits without closing the judge', async () => {
  const { code, output } = await runScript(`
    const { AnswerJudge } = await import(${module('proxy/answer-judge.js')});
    const { readContract } = await import(${module('contract/package-files.js')});
    const judge = new AnswerJudge(readContract().document);
    const body = Buffer.from(JSON.stringify({ errorDescription: 'x'.repeat(1024 * 1024) }));
    const answer = { status: 404, contentType: 'application/json', contentEncoding: null, body };
    if (judge.inline('updateLink', answer) !== undefined) throw new Error('judged inline');
    const verdict = await judge.offThread('updateLink', answer);
    console.log(JSON.stringify({ violations: verdict.violations, chars: verdict.body.chars, threads: judge.threadsRunning }));
  `);
  expect(code, output).toBe(0);
  expect(JSON.parse(output.trim())).toEqual({ violations: [], chars: 1024 * 1024 + 23, threads: 1 });
});
