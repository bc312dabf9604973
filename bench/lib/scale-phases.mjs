// The phases bench:scale measures the same way on both stores: a step timed with the event loop's
// longest stall during it (bench/lib/eld-preload.mjs), the admin pages, and a stop.
import { readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { eventLoopDelay, stopServer } from './processes.mjs';

/** Files a replace, a compaction or a snapshot writes beside the one it replaces. */
const PARTIAL = /\.(compacting|replacing|saving|tmp)$/;

const PAGE = 10;
/** When the deep cursor is refused (its format changed), how many pages to follow from the first instead. */
const FOLLOWED_PAGES = 20;

/** `step()` timed, with the longest event-loop stall while it ran (ms; null without the preload). */
export async function timed(server, step) {
  await eventLoopDelay(server, 'reset');
  // A read answered means the reset before it was handled: IPC messages are handled in order, while
  // the step's HTTP request could otherwise be served (its stall recorded) before the reset.
  await eventLoopDelay(server, 'read');
  const started = performance.now();
  const value = await step();
  const ms = performance.now() - started;
  const eld = await eventLoopDelay(server, 'read');
  return { ms, stallMs: eld?.max ?? null, value };
}

/** demo-key's first page of PAGE links, and a deep one (the middle of the list) through a cursor. */
export async function adminPages(server, parsed) {
  const page = (cursor) => timed(server, () => getPage(server, cursor));
  await getPage(server); // warms the route: the first request of a process prepares its validator
  const first = await page();
  let deep = parsed.deepCursor ? await page(parsed.deepCursor) : undefined;
  let deepAt = parsed.deepIndex;
  if (!deep || deep.value.status !== 200) {
    // Follow nextCursor instead: a bounded walk, so a shallower "deep" page.
    let cursor = first.value.nextCursor;
    for (let i = 1; i < FOLLOWED_PAGES - 1 && cursor; i += 1) cursor = (await getPage(server, cursor)).nextCursor;
    deep = cursor ? await page(cursor) : undefined;
    deepAt = FOLLOWED_PAGES * PAGE - PAGE + 1;
  }
  const shape = (p) => p && { ms: p.ms, stallMs: p.stallMs, status: p.value.status, links: p.value.links };
  return { first: shape(first), deep: deep && { ...shape(deep), from: deepAt } };
}

async function getPage(server, cursor) {
  const query = `account=demo-key&limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  const response = await fetch(`${server.url}/__admin/links?${query}`);
  const body = await response.json().catch(() => ({}));
  return { status: response.status, links: body.links?.length ?? 0, nextCursor: body.nextCursor };
}

/** SIGTERM to exit (SIGKILL past the bench's grace), then what the stop left in `dir` (file store). */
export async function timedStop(server, dir) {
  const started = performance.now();
  await stopServer(server, 60_000);
  const ms = performance.now() - started;
  const gaveUp = /did not finish within/.test(server.output());
  return { ms, gaveUpCompaction: gaveUp, signal: server.child.signalCode, ...(dir ? leftovers(dir) : {}) };
}

/**
 * A request whose answer must have `status`; its body is read and dropped. Through node:http, with
 * no time limit: fetch gives up on headers after 300 s, and a reset at 1,000,000 links on a busy
 * machine took longer (the harness's own bound is the server's stop).
 */
export function request(server, method, path, status) {
  return new Promise((resolve, reject) => {
    const sent = http.request(`${server.url}${path}`, { method }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === status ? resolve() : reject(new Error(`${method} ${path} answered ${response.statusCode}, not ${status}`))));
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** The files in `dir` a write left half done, and whether the change log is still there (the fold at close did not finish). */
export function leftovers(dir) {
  const files = readdirSync(dir, { recursive: true }).map(String);
  const log = files.includes('db.json.changes') ? statSync(join(dir, 'db.json.changes')).size : 0;
  return { partial: files.filter((file) => PARTIAL.test(file)), changeLogBytes: log };
}

