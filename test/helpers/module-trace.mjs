// `node --import ./test/helpers/module-trace.mjs …`: appends the URL of every module the process
// loads through the ES module loader (its own files, and each package it imports) to the file
// named by SLM_MODULE_TRACE, one a line. Registered from the main thread; the hooks run in
// Node's loader thread, where this same file is loaded again and only its hook is used.
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) register(import.meta.url);

export async function load(url, context, nextLoad) {
  if (process.env.SLM_MODULE_TRACE) appendFileSync(process.env.SLM_MODULE_TRACE, `${url}\n`);
  return nextLoad(url, context);
}
