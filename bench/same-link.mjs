// The comparison a restore and a reset make for each link, to take the stored record when it is
// equal (src/store/file/reused-links.ts): the generic sameJson against sameLink, field by field, in
// CPU time a link (process.cpuUsage), over records as the store holds them (parsed, tag lists shared)
// against copies as a snapshot's read or the seed's worker gives them. Needs `npm run build`.
//   node bench/same-link.mjs [links=200000] [rounds=3]
import { sameJson, sameLink } from '../dist/src/store/file/reused-links.js';

const links = Number(process.argv[2] ?? 200_000);
const rounds = Number(process.argv[3] ?? 3);
const lists = [Object.freeze(['tag_aaaaaaaaaaaaaaaa']), Object.freeze([]), Object.freeze(['tag_aaaaaaaaaaaaaaaa', 'tag_bbbbbbbbbbbbbbbb'])];

/** A link as the seed draws it: title in 70%. */
function linkAt(i) {
  const fields = { id: `lnk_${1e15 + i}`, accountId: 'acc_0123456789abcdef', domainId: 'dom_0123456789abcdef', slug: `s${i.toString(36)}`, destinationUrl: `https://example.com/a/${i}` };
  const rest = { createdAt: new Date(1.7e12 + i * 1000).toISOString(), clickCount: i % 500, tagIds: [...lists[i % 3]] };
  return i % 10 < 7 ? { ...fields, title: `Some catch phrase ${i % 1000}`, ...rest } : { ...fields, ...rest };
}

const stored = [];
for (let i = 0; i < links; i += 1) {
  const link = JSON.parse(JSON.stringify(linkAt(i)));
  link.tagIds = lists[i % 3];
  stored.push(link);
}
const read = structuredClone(stored.map((link) => ({ ...link, tagIds: [...link.tagIds] })));

for (const [name, same] of [['sameJson', sameJson], ['sameLink', sameLink], ['sameJson', sameJson], ['sameLink', sameLink]]) {
  const before = process.cpuUsage();
  let equal = 0;
  for (let round = 0; round < rounds; round += 1) for (let i = 0; i < links; i += 1) if (same(stored[i], read[i])) equal += 1;
  const used = process.cpuUsage(before);
  console.log(`${name}: ${(((used.user + used.system) * 1000) / (rounds * links)).toFixed(0)} ns a link (${equal} of ${rounds * links} equal)`);
}
