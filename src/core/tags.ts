// Tag rules (D9, D10): ids only when the tag exists in the account, reuse by exact trimmed name,
// new names become new tags, duplicates collapse. Resolving changes nothing: the new tags are
// returned as records for the caller to add once every other check has passed.
import type { Tag } from '../api-types.js';
import { errors } from './errors.js';
import type { AccountRecord, TagRecord } from './model.js';
import { newId, type RandomInt } from './random.js';
import type { MockState } from './state.js';

export interface ResolvedTags {
  /** The link's tag ids, in request order, without duplicates. */
  tagIds: string[];
  /** Tags that do not exist yet and must be added with the link. */
  created: TagRecord[];
}

export function resolveTags(state: MockState, account: AccountRecord, input: Tag[], random: RandomInt): ResolvedTags {
  // Every unknown id is a 404 before any name mismatch is a 400 (D19).
  for (const tag of input) if (tag.id !== undefined && !state.tagOf(account, tag.id)) throw errors.tagNotFound(tag.id);
  const tagIds: string[] = [];
  const created = new Map<string, TagRecord>();
  for (const tag of input) {
    const name = tag.name.trim();
    const record = tag.id === undefined ? findOrCreateByName(state, account, name, created, random) : existingById(state, account, tag.id, name);
    if (!tagIds.includes(record.id)) tagIds.push(record.id);
  }
  return { tagIds, created: [...created.values()] };
}

function existingById(state: MockState, account: AccountRecord, id: string, name: string): TagRecord {
  const record = state.tagOf(account, id);
  if (!record) throw errors.tagNotFound(id);
  if (record.name !== name) throw errors.tagNameMismatch(id, name, record.name);
  return record;
}

function findOrCreateByName(
  state: MockState,
  account: AccountRecord,
  name: string,
  created: Map<string, TagRecord>,
  random: RandomInt,
): TagRecord {
  const existing = state.tagByName(account, name) ?? created.get(name);
  if (existing) return existing;
  const record: TagRecord = { id: newId(random, 'tag'), accountId: account.id, name };
  created.set(name, record);
  return record;
}
