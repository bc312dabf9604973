// A full collection with 1,000,000 links and the two indexes built over them, as MockState holds
// them: packed (src/core/packed/: PackedLinkTable, PackedSlugIndex and a PackedAccountOrder per
// account over the table's arena, record numbers in typed arrays) against split (SplitLinkTable,
// SlugIndex of SlugTables via slotSlug, an OrderedLinks per account: the store today). Issue 40's
// gate: a full collection at 1M under 50 ms with everything a store holds per link alive.
//   node --expose-gc --max-old-space-size=6000 bench/packed-indexes.mjs packed|split [links=1000000] [db.json]
// Links from the seed (/work/scale-data/seed/db.json, read-only, line by line; tag lists shared).
// Prints one JSON line: five forced full collections (`gc()`: the marking in the pause), memory; the
// CPU (process.cpuUsage) per link of the table's puts, of the slug index's puts and of the orders'
// adds, each timed apart (packed: the record number found by `recordOf` apart too); per lookup of
// 100,000 slug gets and 10,000 pages of 25 from a link's position (numbers only, then with each
// link materialised); then half the links taken out of all three (each timed apart), both arenas
// compacted a step at a time, and (after an untimed one) three more full collections. Needs `npm run build`.
import { createReadStream } from 'node:fs';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { SplitLinkTable } from '../dist/src/core/link-table.js';
import { TagLists } from '../dist/src/core/tag-lists.js';
import { OrderedLinks } from '../dist/src/core/link-order.js';
import { slotSlug } from '../dist/src/core/slug-table.js';
import { PackedLinkTable } from '../dist/src/core/packed/packed-link-table.js';
import { PackedSlugIndex } from '../dist/src/core/packed/packed-slug-index.js';
import { PackedAccountOrder } from '../dist/src/core/packed/packed-account-order.js';
import { OrderKey } from '../dist/src/core/packed/order-key.js';

const [mode = 'packed', count = '1000000', db = '/work/scale-data/seed/db.json'] = process.argv.slice(2);
const N = Number(count);
if (!['packed', 'split'].includes(mode) || !(N > 0) || typeof globalThis.gc !== 'function') {
  console.error('usage: node --expose-gc --max-old-space-size=6000 bench/packed-indexes.mjs packed|split [links] [db.json]');
  process.exit(2);
}
const packed = mode === 'packed';
const cpuMs = (from) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};
const perUs = (ms, k) => Math.round((ms * 1000 * 100) / k) / 100;

const table = packed ? new PackedLinkTable() : new SplitLinkTable();
const slugs = packed ? new PackedSlugIndex() : new Map();
const orders = new Map();
const key = packed ? new OrderKey(table.arena) : undefined;
const orderOf = (accountId) => {
  let order = orders.get(accountId);
  if (!order) orders.set(accountId, (order = packed ? new PackedAccountOrder(key) : new OrderedLinks()));
  return order;
};
/** Tag lists shared and frozen, as a loaded store shares them. */
let tagLists = new TagLists();

const ms = { table: 0, find: 0, slugs: 0, orders: 0 };
let batch = [];
const records = new Int32Array(10_000);
/** The batch's links put into the table, then the slug index, then the orders, each timed apart. */
function putBatch() {
  const links = batch.map((text) => JSON.parse(text));
  for (const link of links) link.tagIds = tagLists.shared(link.tagIds);
  let start = process.cpuUsage();
  for (const link of links) table.set(link.id, link);
  ms.table += cpuMs(start);
  if (packed) {
    start = process.cpuUsage();
    for (const [k, link] of links.entries()) records[k] = table.recordOf(link.id);
    ms.find += cpuMs(start);
    start = process.cpuUsage();
    for (const [k, link] of links.entries()) slugs.put(link.domainId, link.slug, records[k]);
    ms.slugs += cpuMs(start);
    start = process.cpuUsage();
    for (const [k, link] of links.entries()) orderOf(link.accountId).add(records[k]);
    ms.orders += cpuMs(start);
  } else {
    start = process.cpuUsage();
    for (const link of links) slotSlug(slugs, link);
    ms.slugs += cpuMs(start);
    start = process.cpuUsage();
    for (const link of links) orderOf(link.accountId).add(link);
    ms.orders += cpuMs(start);
  }
  batch = [];
}

const lines = createInterface({ input: createReadStream(db), crlfDelay: Infinity });
for await (const line of lines) {
  if (table.size + batch.length >= N) break;
  if (!line.startsWith('    "lnk_')) continue;
  batch.push(line.slice(line.indexOf(': ') + 2).replace(/,$/, ''));
  if (batch.length === records.length) putBatch();
}
putBatch();
tagLists = undefined; // the lists stay on the links; the table of them goes before the collections
const links = table.size;
const accounts = orders.size;
const largestAccount = Math.max(...[...orders.values()].map((order) => order.size));

/** Wall ms of each forced full collection; their CPU ms (the process's: the collector's helper threads too) in `cpu`. */
const fullGcs = (rounds, cpu) => {
  const pauses = [];
  for (let round = 0; round < rounds; round += 1) {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    globalThis.gc();
    cpu.push(Math.round(cpuMs(cpuStart) * 10) / 10);
    pauses.push(Math.round((performance.now() - start) * 10) / 10);
  }
  return pauses;
};
const gcCpu = [];
const pauses = fullGcs(5, gcCpu);
const memory = process.memoryUsage();

// Every 10th link's place (its account, domain, slug, createdAt, id), drawn from by a seeded generator.
let sample = [];
let doomed = [];
let at = 0;
for (const [id, link] of table) {
  const place = { id, accountId: link.accountId, domainId: link.domainId, slug: link.slug, createdAt: link.createdAt };
  if (at % 10 === 0) sample.push(place);
  if (at % 2 === 0) doomed.push(place);
  at += 1;
}
let seed = 41;
const draw = () => sample[(seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) % sample.length];
let found = 0;
let start = process.cpuUsage();
for (let k = 0; k < 100_000; k += 1) {
  const place = draw();
  if (packed ? slugs.get(place.domainId, place.slug) >= 0 : slugs.get(place.domainId)?.get(place.slug) !== undefined) found += 1;
}
const slugGetMs = cpuMs(start);
let paged = 0;
start = process.cpuUsage();
for (let k = 0; k < 10_000; k += 1) {
  const place = draw();
  paged += orders.get(place.accountId).page(place, 25).length;
}
const pageMs = cpuMs(start);
// The same pages with their links as a request shows them: packed, each materialised (JSON.parse).
let shown = 0;
start = process.cpuUsage();
for (let k = 0; k < 10_000; k += 1) {
  const place = draw();
  for (const item of orders.get(place.accountId).page(place, 25)) if ((packed ? table.linkAt(item) : item).id !== place.id) shown += 1;
}
const pageLinksMs = cpuMs(start);
sample = [];

// Half the links out of the orders, the slug index and the table, in that order (a removeLink's), each timed apart.
let doomedRecords = packed ? doomed.map((place) => table.recordOf(place.id)) : [];
const out = { orders: 0, slugs: 0, table: 0 };
start = process.cpuUsage();
for (const [k, place] of doomed.entries()) orders.get(place.accountId).remove(packed ? doomedRecords[k] : place);
out.orders = cpuMs(start);
start = process.cpuUsage();
for (const place of doomed) packed ? slugs.delete(place.domainId, place.slug) : slugs.get(place.domainId).delete(place.slug);
out.slugs = cpuMs(start);
start = process.cpuUsage();
for (const place of doomed) table.delete(place.id);
out.table = cpuMs(start);
const deletes = doomed.length;
doomed = [];
doomedRecords = [];

let steps = 0;
let longestStepMs = 0;
let compactMs = 0;
for (let walked = 1; packed && walked > 0 && steps < 200_000; steps += 1) {
  const stepStart = process.cpuUsage();
  walked = table.compactStep() + slugs.compactStep();
  const stepMs = cpuMs(stepStart);
  compactMs += stepMs;
  longestStepMs = Math.max(longestStepMs, stepMs);
}
const heapBeforeMiB = Math.round(process.memoryUsage().heapUsed / 1048576);
// The bench's own garbage (the listing's links, the places drawn from) let go first, untimed: the
// three timed collections are then over what the structures hold after the deletes.
globalThis.gc();
const afterCpu = [];
const afterPauses = fullGcs(3, afterCpu);

const MiB = (bytes) => Math.round(bytes / 1048576);
console.log(JSON.stringify({
  mode,
  links,
  accounts,
  largestAccount,
  fullGcMs: pauses,
  fullGcCpuMs: gcCpu,
  heapUsedMiB: MiB(memory.heapUsed),
  externalMiB: MiB(memory.external),
  rssMiB: MiB(memory.rss),
  putUsPerLink: { table: perUs(ms.table, links), recordOf: perUs(ms.find, links), slugs: perUs(ms.slugs, links), orders: perUs(ms.orders, links) },
  slugGetUs: perUs(slugGetMs, 100_000),
  slugsFound: found,
  pageOf25Us: perUs(pageMs, 10_000),
  paged,
  pageOf25WithLinksUs: perUs(pageLinksMs, 10_000),
  shown,
  removeUsPerLink: { orders: perUs(out.orders, deletes), slugs: perUs(out.slugs, deletes), table: perUs(out.table, deletes) },
  afterDeletes: { table: table.size, orders: [...orders.values()].reduce((sum, order) => sum + order.size, 0), slugs: packed ? slugs.size : [...slugs.values()].reduce((sum, t) => sum + t.size, 0) },
  compaction: packed ? { steps, cpuMs: Math.round(compactMs), longestStepMs: Math.round(longestStepMs * 100) / 100 } : undefined,
  fullGcMsAfterDeletes: afterPauses,
  fullGcCpuMsAfterDeletes: afterCpu,
  heapUsedMiBBeforeThem: heapBeforeMiB,
  load: loadavg().map((value) => Math.round(value * 10) / 10),
}));
