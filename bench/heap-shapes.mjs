// What a full garbage collection costs with 1,000,000 links held four ways (issue 40: the stalls left
// at 1M are the collector's). Synthetic links of the seed's shape (one account, domain and tag list
// shared), flat strings. Each mode holds them:
//   objects  a Map of id → record object (the file store today: ~6 heap objects a link)
//   strings  a Map of id → the record's JSON text (one string a link besides its id)
//   buffer   a Map of id → index, the records' text in one Buffer (off the heap)
//   typed    the text in one Buffer and a typed-array hash table: no JS object or string per link
// then times five forced full collections (`global.gc()`: not concurrent, so the marking is all in
// the pause: an upper bound on a pause of V8's own).
//   node --expose-gc --max-old-space-size=6000 bench/heap-shapes.mjs objects|strings|buffer|typed [links]
const [mode, n = '1000000'] = process.argv.slice(2);
const N = +n;
const A = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'; const codes = []; const rnd = (k) => { codes.length = k; for (let i = 0; i < k; i++) codes[i] = A.charCodeAt((Math.random() * 62) | 0); return String.fromCharCode(...codes); };
const acc = 'acc_' + rnd(16), dom = 'dom_' + rnd(16), tags = Object.freeze(['tag_' + rnd(16)]);
const table = new Map();
let buffer, offsets, slots;
const texts = [];
for (let i = 0; i < N; i++) {
  const id = 'lnk_' + rnd(16);
  const link = { id, accountId: acc, domainId: dom, slug: rnd(7), destinationUrl: rnd(40), title: rnd(30), createdAt: new Date(1.7e12 + i * 1000).toISOString(), clickCount: i % 500, tagIds: tags };
  if (mode === 'objects') table.set(id, link);
  else if (mode === 'strings') table.set(id, JSON.stringify(link));
  else { if (mode === 'buffer') table.set(id, i); texts.push(JSON.stringify(link)); }
}
if (mode === 'typed') { slots = new Int32Array(1 << 21); for (let i = 0; i < N; i++) slots[(i * 2654435761) >>> 11] = i; }
if (mode === 'buffer' || mode === 'typed') { buffer = Buffer.from(texts.join('\n')); texts.length = 0; }
const times = [];
for (let r = 0; r < 5; r++) { const t = performance.now(); globalThis.gc(); times.push(performance.now() - t); }
const heap = process.memoryUsage();
console.log(JSON.stringify({ mode, N, kept: table.size + (buffer?.length ?? 0) + (slots?.length ?? 0), fullGcMs: times.map((t) => Math.round(t)), heapUsedMiB: Math.round(heap.heapUsed / 1048576), externalMiB: Math.round(heap.external / 1048576), rssMiB: Math.round(heap.rss / 1048576) }));
