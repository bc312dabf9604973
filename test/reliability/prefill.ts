// Fills a stopped db's change log up to just below the compaction threshold with put-link lines of
// the demo account, exactly as the store writes them, so that the next few hundred creates of a
// test start a compaction (8 MiB of real creates would take ~30 s at ~1000 creates/s).
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import type { Change } from '../../src/core/changes.js';
import type { MockData } from '../../src/core/model.js';
import { headerLine } from '../../src/store/file/change-log.js';
import { DEFAULT_COMPACT_AFTER_BYTES } from '../../src/store/file/log-file-store.js';
import { DEMO, randomAlnum, seededRandom } from './helpers.js';

/** Appends links until `<db>.changes` is `margin` bytes short of the threshold; returns them (id → slug). */
export function prefillLog(db: string, label: string, seed: number, margin = 64 * 1024): Map<string, string> {
  const data = JSON.parse(readFileSync(db, 'utf8')) as MockData & { generation?: number };
  const account = data.accounts.find((candidate) => candidate.apiKey === DEMO);
  if (!account) throw new Error(`${db} has no ${DEMO} account`);
  const log = `${db}.changes`;
  const target = DEFAULT_COMPACT_AFTER_BYTES - margin;
  let size = existsSync(log) ? statSync(log).size : 0;
  const random = seededRandom(seed);
  const links = new Map<string, string>();
  // A new log starts with the generation of the base it belongs to, as the store writes it.
  const lines: string[] = size === 0 ? [headerLine(data.generation ?? 0)] : [];
  size += Buffer.byteLength(lines.join(''));
  for (let n = 0; size < target; n += 1) {
    const slug = `${label}-${n}`;
    const change: Change = {
      op: 'put-link',
      link: {
        id: `lnk_${randomAlnum(random, 16)}`,
        accountId: account.id,
        domainId: data.defaultDomain.id,
        slug,
        // Long URLs: the log reaches the threshold with fewer links, so restarts stay quick.
        destinationUrl: `https://example.com/${slug}/${'p'.repeat(400)}`,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, n)).toISOString(),
        clickCount: 0,
        tagIds: [],
      },
    };
    const line = `${JSON.stringify(change)}\n`;
    if (size + Buffer.byteLength(line) > target) break;
    lines.push(line);
    size += Buffer.byteLength(line);
    if (change.op === 'put-link') links.set(change.link.id, slug);
  }
  appendFileSync(log, lines.join(''));
  return links;
}
