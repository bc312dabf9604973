// The links table (src/core/link-table.ts) filled with N links, then each deleted one by one: the
// longest single delete with the collector's time in it taken out (PerformanceObserver's gc entries).
// A rebuild of the table's order in one step held one delete 585 ms at the 500,000th of 1,000,000
// (issue 40); src/core/entry-order.ts does it a step per change.
//   npm run build && node --max-old-space-size=4000 bench/delete-stalls.mjs [N=1000000] [builtDir=.]
import { PerformanceObserver } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [count = '1000000', dir = '.'] = process.argv.slice(2);
const { SplitLinkTable } = await import(pathToFileURL(join(resolve(dir), 'dist/src/core/link-table.js')).href);
const collections = [];
new PerformanceObserver((list) => list.getEntries().forEach((entry) => collections.push([entry.startTime, entry.duration]))).observe({ entryTypes: ['gc'] });
const table = new SplitLinkTable();
const ids = [];
for (let i = 0; i < Number(count); i += 1) {
  const id = `lnk_${((i * 2654435761) % 4294967296).toString(36).padStart(8, '0')}${i.toString(36)}`;
  ids.push(id);
  table.set(id, { id, slug: `s${i}` });
}
const slow = [];
for (let i = 0; i < ids.length; i += 1) {
  const started = performance.now();
  table.delete(ids[i]);
  const took = performance.now() - started;
  if (took > 5) slow.push([started, took, i]);
}
await new Promise((done) => setTimeout(done, 50)); // the gc entries arrive after a turn
const own = slow.map(([started, took, i]) => [took - collections.filter(([at]) => at >= started && at < started + took).reduce((sum, [, ms]) => sum + ms, 0), took, i]);
own.sort((x, y) => y[0] - x[0]);
console.log(`${dir}: the longest deletes without the collector's time: ${own.slice(0, 3).map(([ms, took, i]) => `${ms.toFixed(1)} ms (of ${took.toFixed(1)}) at the ${i}th`).join('; ') || 'none over 5 ms'}`);
