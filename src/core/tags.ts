// Tag rules (D9, D10): ids only when the tag exists in the account, reuse by exact trimmed name,
// new names become new tags, duplicates collapse. In two steps, so that a refused request creates
// no tag: `checkTags` runs with the other checks (unknown ids 404, then name mismatches 400); then
// a create finds which names are new (`resolveTags`: the store makes those tags with the link, only
// if their names are still free), and an update claims each new name in the store (`claimTags`:
// the first claim of a name creates the tag; a request racing it gets that same tag).
import type { Tag } from '../api-types.js';
import type { LinkStore } from '../store/link-store.js';
import { errors } from './errors.js';
import type { AccountRecord, TagRecord } from './model.js';
import { newId, type RandomInt } from './random.js';

/** The request's tags in order: an existing tag (sent by id) or a name to reuse or create. */
export type TagPlan = Array<{ tag: TagRecord } | { name: string }>;

export interface ResolvedTags {
  /** The link's tag ids, in request order, without duplicates. */
  tagIds: string[];
  /** The tags this request created. */
  created: TagRecord[];
}

export async function checkTags(store: LinkStore, account: AccountRecord, input: Tag[]): Promise<TagPlan> {
  const byId = new Map<string, TagRecord>();
  // Every unknown id is a 404 before any name mismatch is a 400 (D19).
  for (const tag of input) {
    if (tag.id === undefined || byId.has(tag.id)) continue;
    const record = await store.tagById(tag.id);
    if (!record || record.accountId !== account.id) throw errors.tagNotFound(tag.id);
    byId.set(tag.id, record);
  }
  return input.map((tag) => {
    const name = tag.name.trim();
    if (tag.id === undefined) return { name };
    const record = byId.get(tag.id) as TagRecord;
    if (record.name !== name) throw errors.tagNameMismatch(tag.id, name, record.name);
    return { tag: record };
  });
}

/** The link's tag ids, with the tags to make for names the account does not have yet (nothing is written). */
export async function resolveTags(store: LinkStore, account: AccountRecord, plan: TagPlan, random: RandomInt): Promise<ResolvedTags> {
  return collectTags(plan, async (name, created) => {
    const existing = await store.tagByName(account.id, name);
    if (existing) return existing;
    const tag: TagRecord = { id: newId(random, 'tag'), accountId: account.id, name };
    created.push(tag);
    return tag;
  });
}

export async function claimTags(store: LinkStore, account: AccountRecord, plan: TagPlan, random: RandomInt): Promise<ResolvedTags> {
  return collectTags(plan, (name, created) => claimName(store, account, name, random, created));
}

/** Ids in request order without duplicates; each name is looked up (`tagOf`) once. */
async function collectTags(plan: TagPlan, tagOf: (name: string, created: TagRecord[]) => Promise<TagRecord>): Promise<ResolvedTags> {
  const tagIds: string[] = [];
  const created: TagRecord[] = [];
  const byName = new Map<string, TagRecord>();
  for (const step of plan) {
    const record = 'tag' in step ? step.tag : (byName.get(step.name) ?? (await tagOf(step.name, created)));
    if ('name' in step) byName.set(step.name, record);
    if (!tagIds.includes(record.id)) tagIds.push(record.id);
  }
  return { tagIds, created };
}

async function claimName(store: LinkStore, account: AccountRecord, name: string, random: RandomInt, created: TagRecord[]): Promise<TagRecord> {
  const existing = await store.tagByName(account.id, name);
  if (existing) return existing;
  const claim = await store.claimTagName({ id: newId(random, 'tag'), accountId: account.id, name });
  if (claim.created) created.push(claim.tag);
  return claim.tag;
}
