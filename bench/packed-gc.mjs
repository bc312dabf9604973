// What a full collection costs with 1,000,000 links in a PackedLinkTable (src/core/packed/: the
// links as JSON bytes in Buffer segments, typed-array indexes) against a SplitLinkTable (64 Maps of
// record objects, the store today): issue 40's gate is a full collection at 1M under 50 ms. The
// links are the seed's (/work/scale-data/seed/db.json, read line by line, read-only; its tag lists
// shared as the store shares them), or synthetic ones of its shape without a file. Each mode in a
// process of its own:
//   node --expose-gc --max-old-space-size=6000 bench/packed-gc.mjs packed|split [links=1000000] [db.json]
// prints, as one JSON line: five forced full collections (`gc()`, not concurrent: the marking is
// in the pause), heap used, external and RSS after them; the CPU (process.cpuUsage, user+system)
// of the puts per link (the JSON parse of the file's lines apart) and of gets per link (100,000
// gets of ids drawn by a seeded generator; the packed get materialises the record by JSON.parse),
// of a listing of every link (id and link) per link; then half the links
// deleted (CPU per delete), the packed arena compacted a step at a time (steps, CPU, the longest
// step's), and three more full collections.
// Needs `npm run build`.
import { createReadStream, existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { SplitLinkTable } from '../dist/src/core/link-table.js';
import { TagLists } from '../dist/src/core/tag-lists.js';
import { PackedLinkTable } from '../dist/src/core/packed/packed-link-table.js';

const [mode = 'packed', count = '1000000', db = '/work/scale-data/seed/db.json'] = process.argv.slice(2);
const N = Number(count);
if (!['packed', 'split'].includes(mode) || !(N > 0) || typeof globalThis.gc !== 'function') {
  console.error('usage: node --expose-gc --max-old-space-size=6000 bench/packed-gc.mjs packed|split [links] [db.json]');
  process.exit(2);
}
const cpuMs = (from) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};
const table = mode === 'packed' ? new PackedLinkTable() : new SplitLinkTable();
/** Tag lists shared and frozen, as a loaded store shares them. */
let tagLists = new TagLists();

let putMs = 0;
let parseMs = 0;
let batch = [];
/** Puts the batch's links, timed apart from their parse (links given as text are parsed first, timed too). */
function putBatch() {
  let start = process.cpuUsage();
  const links = batch.map((item) => (typeof item === 'string' ? JSON.parse(item) : item));
  for (const link of links) link.tagIds = tagLists.shared(link.tagIds);
  parseMs += cpuMs(start);
  start = process.cpuUsage();
  for (const link of links) table.set(link.id, link);
  putMs += cpuMs(start);
  batch = [];
}
function take(item) {
  batch.push(item);
  if (batch.length === 10_000) putBatch();
}

async function fromFile() {
  const lines = createInterface({ input: createReadStream(db), crlfDelay: Infinity });
  for await (const line of lines) {
    if (table.size + batch.length >= N) break;
    if (!line.startsWith('    "lnk_')) continue;
    take(line.slice(line.indexOf(': ') + 2).replace(/,$/, ''));
  }
}

/** Synthetic links of the seed's shape (a seeded generator). */
function synthetic() {
  let seed = 40;
  const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
  const word = (k) => Array.from({ length: k }, () => 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'[next() % 62]).join('');
  for (let i = 0; i < N; i += 1) {
    const link = { id: `lnk_${word(16)}`, accountId: 'acc_hRm60Sgzsx9SaGxS', domainId: 'dom_WBw2KtIT3OrBZQUb', slug: word(7), destinationUrl: `https://${word(12)}.info/${word(10)}` };
    if (next() % 10 < 7) link.title = `${word(8)} ${word(6)} ${word(9)}`;
    Object.assign(link, { createdAt: new Date(1.7e12 + i * 1000).toISOString(), clickCount: next() % 20_000, tagIds: next() % 2 ? [] : ['tag_CUqCQbKvmTgva6Uf'] });
    take(link);
  }
}

if (existsSync(db)) await fromFile();
else synthetic();
putBatch();
tagLists = undefined; // the lists stay on the links; the table of them goes before the collections

const pauses = [];
for (let round = 0; round < 5; round += 1) {
  const start = performance.now();
  globalThis.gc();
  pauses.push(Math.round((performance.now() - start) * 10) / 10);
}
const memory = process.memoryUsage();

// Gets: every 10th id, in an order drawn by a seeded generator.
const ids = [];
let at = 0;
for (const id of table.keys()) if (at++ % 10 === 0) ids.push(id);
let seed = 41;
const start = process.cpuUsage();
let found = 0;
for (let k = 0; k < 100_000; k += 1) {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  if (table.get(ids[seed % ids.length]) !== undefined) found += 1;
}
const getMs = cpuMs(start);
ids.length = 0;

// A listing of every link (a snapshot's or a compaction's writer reads them so).
let listed = 0;
const listStart = process.cpuUsage();
for (const [id, link] of table) if (id === link.id) listed += 1;
const listMs = cpuMs(listStart);
globalThis.gc();

// Half the links deleted (every other one in order), then, packed, the arena compacted a step at a
// time (each step's CPU: the longest is the turn it would hold the loop).
const doomed = [];
at = 0;
for (const id of table.keys()) if (at++ % 2 === 0) doomed.push(id);
const links = table.size;
const deletes = doomed.length;
const deleteStart = process.cpuUsage();
for (const id of doomed) table.delete(id);
const deleteMs = cpuMs(deleteStart);
doomed.length = 0;
let steps = 0;
let longestStepMs = 0;
let compactMs = 0;
const heldBefore = table.held?.();
for (let walked = 1; walked > 0 && table.compactStep && steps < 100_000; steps += 1) {
  const stepStart = process.cpuUsage();
  walked = table.compactStep();
  const stepMs = cpuMs(stepStart);
  compactMs += stepMs;
  longestStepMs = Math.max(longestStepMs, stepMs);
}
const heldAfter = table.held?.();
const afterPauses = [];
for (let round = 0; round < 3; round += 1) {
  const gcStart = performance.now();
  globalThis.gc();
  afterPauses.push(Math.round((performance.now() - gcStart) * 10) / 10);
}

const MiB = (bytes) => Math.round(bytes / 1048576);
console.log(JSON.stringify({
  mode,
  links,
  source: existsSync(db) ? db : 'synthetic',
  fullGcMs: pauses,
  heapUsedMiB: MiB(memory.heapUsed),
  externalMiB: MiB(memory.external),
  arrayBuffersMiB: MiB(memory.arrayBuffers),
  rssMiB: MiB(memory.rss),
  putUsPerLink: Math.round((putMs * 1000 * 100) / links) / 100,
  parseLineUsPerLink: Math.round((parseMs * 1000 * 100) / links) / 100,
  getUsPerLink: Math.round((getMs * 1000 * 100) / 100_000) / 100,
  gets: found,
  listUsPerLink: Math.round((listMs * 1000 * 100) / links) / 100,
  listed,
  deleteUsPerLink: Math.round((deleteMs * 1000 * 100) / deletes) / 100,
  afterDeletes: table.size,
  compaction: heldBefore && { steps, cpuMs: Math.round(compactMs), longestStepMs: Math.round(longestStepMs * 100) / 100, segmentsBefore: heldBefore.segments, segmentsAfter: heldAfter.segments, freeMiBBefore: MiB(heldBefore.free), freeMiBAfter: MiB(heldAfter.free) },
  fullGcMsAfterDeletes: afterPauses,
  load: loadavg().map((value) => Math.round(value * 10) / 10),
}));
