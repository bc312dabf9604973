// A snapshot's data (MockData) as the fields of one Redis hash, both ways (redis-snapshots.ts): a
// `head` field with what is small (format, seed, default domain, counts), then one field per
// account (`a:<n>`, n keeps their order), tag (`t:<id>`) and link (`l:<id>`, its click count in it),
// so that it is written and read in commands of a bounded number of fields however large it is.
import type { AccountRecord, DomainRecord, LinkRecord, MockData, TagRecord } from '../../core/model.js';
import { putEntry } from '../../core/own-entry.js';
import { SplitLinkTable } from '../../core/link-table.js';

interface Head {
  formatVersion: number;
  seed: number;
  defaultDomain: DomainRecord;
  accounts: number;
  tags: number;
  links: number;
}

export const HEAD_FIELD = 'head';

/** The field-value pairs of `data`, `batch` pairs at a time (each a flat [field, value, …] list), made as they are asked for. */
export function* snapshotFields(data: MockData, batch: number): Generator<string[]> {
  const links = [...data.links.values()];
  const tags = Object.values(data.tags);
  const head: Head = { formatVersion: data.formatVersion, seed: data.seed, defaultDomain: data.defaultDomain, accounts: data.accounts.length, tags: tags.length, links: links.length };
  const pairs = function* (): Generator<[string, string]> {
    yield [HEAD_FIELD, JSON.stringify(head)];
    for (const [n, account] of data.accounts.entries()) yield [`a:${n}`, JSON.stringify(account)];
    for (const tag of tags) yield [`t:${tag.id}`, JSON.stringify(tag)];
    for (const link of links) yield [`l:${link.id}`, JSON.stringify(link)];
  };
  let chunk: string[] = [];
  for (const [field, value] of pairs()) {
    chunk.push(field, value);
    if (chunk.length === 2 * batch) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** Gathers the fields of a snapshot's hash as they are read (HSCAN may give a field twice: kept once). */
export class SnapshotReader {
  private head: Head | undefined;
  private readonly accounts = new Map<number, AccountRecord>();
  private readonly data: Pick<MockData, 'tags' | 'links'> = { tags: {}, links: new SplitLinkTable() };
  private tagCount = 0;
  private linkCount = 0;

  add(flat: readonly string[]): void {
    for (let i = 0; i + 1 < flat.length; i += 2) this.field(flat[i] as string, flat[i + 1] as string);
  }

  /** The whole data, or undefined when a field is missing (the hash was deleted or replaced while it was read). */
  result(): MockData | undefined {
    const head = this.head;
    if (!head || this.accounts.size !== head.accounts || this.tagCount !== head.tags || this.linkCount !== head.links) return undefined;
    const accounts = Array.from({ length: head.accounts }, (_, n) => this.accounts.get(n));
    if (accounts.some((account) => account === undefined)) return undefined;
    return { formatVersion: head.formatVersion, seed: head.seed, defaultDomain: head.defaultDomain, accounts: accounts as AccountRecord[], ...this.data };
  }

  private field(field: string, value: string): void {
    if (field === HEAD_FIELD) this.head = JSON.parse(value) as Head;
    else if (field.startsWith('a:')) this.accounts.set(Number(field.slice(2)), JSON.parse(value) as AccountRecord);
    else if (field.startsWith('t:') && !Object.hasOwn(this.data.tags, field.slice(2))) {
      putEntry(this.data.tags, field.slice(2), JSON.parse(value) as TagRecord);
      this.tagCount += 1;
    } else if (field.startsWith('l:') && !this.data.links.has(field.slice(2))) {
      this.data.links.set(field.slice(2), JSON.parse(value) as LinkRecord);
      this.linkCount += 1;
    }
  }
}
