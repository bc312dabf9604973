// Tag rules (D9, D10): ids only when the tag exists in the account, reuse by exact trimmed name,
// new names become new tags, duplicates collapse. In two steps, so that a refused request creates
// no tag: `checkTags` runs with the other checks (unknown ids 404, then name mismatches 400); then
// a create finds which names are new (`resolveTags`: the store makes those tags with the link, only
// if their names are still free), and an update claims each new name in the store (`claimTags`:
// the first claim of a name creates the tag; a request racing it gets that same tag).
import type { Tag } from './api-types.js';
import { allOf, andThen, type Awaitable } from './awaitable.js';
import type { LinkStore } from './link-store.js';
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

export function checkTags(store: LinkStore, account: AccountRecord, input: Tag[]): Awaitable<TagPlan> {
  const ids: string[] = [];
  for (const tag of input) if (tag.id !== undefined && !ids.includes(tag.id)) ids.push(tag.id);
  return andThen(allOf(ids.map((id) => store.tagById(id))), (records) => {
    const byId = new Map<string, TagRecord>();
    // Every unknown id is a 404 before any name mismatch is a 400 (D19), the first in request order.
    ids.forEach((id, i) => {
      const record = records[i];
      if (!record || record.accountId !== account.id) throw errors.tagNotFound(id);
      byId.set(id, record);
    });
    return input.map((tag) => {
      const name = tag.name.trim();
      if (tag.id === undefined) return { name };
      const record = byId.get(tag.id) as TagRecord;
      if (record.name !== name) throw errors.tagNameMismatch(tag.id, name, record.name);
      return { tag: record };
    });
  });
}

/** The link's tag ids, with the tags to make for names the account does not have yet (nothing is written). */
export function resolveTags(store: LinkStore, account: AccountRecord, plan: TagPlan, random: RandomInt): Awaitable<ResolvedTags> {
  const names = namesOf(plan);
  return andThen(allOf(names.map((name) => store.tagByName(account.id, name))), (existing) => {
    const byName = new Map<string, TagRecord>();
    const created: TagRecord[] = [];
    names.forEach((name, i) => {
      let tag = existing[i];
      if (!tag) created.push((tag = { id: newId(random, 'tag'), accountId: account.id, name }));
      byName.set(name, tag);
    });
    return collectTags(plan, byName, created);
  });
}

/**
 * The same for an update: each new name is claimed in the store, one after the other, in request
 * order. At once for a plan that names no tag by name (an update that sends ids only, or none).
 */
export function claimTags(store: LinkStore, account: AccountRecord, plan: TagPlan, random: RandomInt): Awaitable<ResolvedTags> {
  const names = namesOf(plan);
  return names.length === 0 ? collectTags(plan, new Map(), []) : claimAll(store, account, plan, names, random);
}

async function claimAll(store: LinkStore, account: AccountRecord, plan: TagPlan, names: string[], random: RandomInt): Promise<ResolvedTags> {
  const byName = new Map<string, TagRecord>();
  const created: TagRecord[] = [];
  for (const name of names) byName.set(name, await claimName(store, account, name, random, created));
  return collectTags(plan, byName, created);
}

/** The names the plan asks for, each once, in request order. */
function namesOf(plan: TagPlan): string[] {
  // A loop, not a Set of a flatMap: a plan holds at most 50 steps, and this runs on every create.
  const names: string[] = [];
  for (const step of plan) if ('name' in step && !names.includes(step.name)) names.push(step.name);
  return names;
}

/** Ids in request order without duplicates, each name's tag as found or made. */
function collectTags(plan: TagPlan, byName: Map<string, TagRecord>, created: TagRecord[]): ResolvedTags {
  const tagIds: string[] = [];
  for (const step of plan) {
    const record = 'tag' in step ? step.tag : (byName.get(step.name) as TagRecord);
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
