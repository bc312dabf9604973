// The provider states of an exported interaction: what must be true at the provider for the same
// request to have the same outcome (operation × status × code), in names the mock can set up again
// (src/core/provider-state-names.ts, POST /__admin/provider-states). Pure.
import type { CreateLinkRequest, Link, UpdateLinkRequest } from '../core/api-types.js';
import { errors } from '../core/errors.js';
import type { JournalEntry } from '../core/journal.js';
import { stateName, type ProviderStateKind } from '../core/provider-state-names.js';
import { isErrorObject, isLink } from './export-bodies.js';
import type { ProviderState } from './export-pact-v3.js';

const state = (kind: ProviderStateKind, values: Record<string, string>, extra: Record<string, unknown> = {}): ProviderState => ({
  name: stateName(kind, values),
  params: { ...values, ...extra },
});

/** The link as the journal last showed it before `entry` (a create's or an update's answer), if it did. */
function lastSeenLink(history: readonly JournalEntry[], id: string, before: number): Link | undefined {
  let seen: Link | undefined;
  for (const entry of history) {
    if (entry.seq >= before) break;
    if (entry.status !== null && entry.status < 300 && isLink(entry.responseBody) && entry.responseBody.id === id) seen = entry.responseBody;
  }
  return seen;
}

function createStates(entry: JournalEntry, apiKey: string, code: string | null): ProviderState[] {
  const body = (entry.requestBody ?? {}) as Partial<CreateLinkRequest>;
  const key = { apiKey };
  if (code === 'LINK_LIMIT_REACHED') return [state('account', key), state('atLinkLimit', key)];
  // Tags the client named by id must exist in its account for the link to be made.
  const namedTags = entry.status === 201 && Array.isArray(body.tags) ? body.tags.filter((tag) => typeof tag?.id === 'string') : [];
  const states = [state('account', key, namedTags.length > 0 ? { tags: namedTags } : {}), state('roomForLink', key)];
  const { slug, domain } = body;
  if (typeof slug !== 'string' || slug === '' || typeof domain !== 'string') return states;
  if (entry.status === 201) return [...states, state('slugFree', { slug, domain })];
  if (entry.status === 400 && isSlugTaken(entry.responseBody, slug, domain)) return [...states, state('slugTaken', { slug, domain }, { apiKey })];
  return states;
}

/** Whether the answer was the core's "slug taken" (D11), told apart from the other 400s by its own template. */
function isSlugTaken(answer: unknown, slug: string, domain: string): boolean {
  return isErrorObject(answer) && answer.errorDescription.toLowerCase() === errors.slugTaken(slug, domain).errorDescription.toLowerCase();
}

function linkStates(entry: JournalEntry, apiKey: string, history: readonly JournalEntry[]): ProviderState[] {
  const id = decodeURIComponent(entry.path.split('?')[0]?.split('/').pop() ?? '');
  const key = { apiKey };
  if (entry.status === 404) return [state('account', key), state('noLink', { id })];
  const before = lastSeenLink(history, id, entry.seq);
  const after = entry.status === 200 && isLink(entry.responseBody) ? entry.responseBody : undefined;
  const sent = (entry.operationId === 'updateLink' ? (entry.requestBody ?? {}) : {}) as Partial<UpdateLinkRequest>;
  // What the update changes was as before it (when the journal showed it); the rest is as its answer shows.
  const link = after ?? before;
  const fields: Record<string, unknown> = link ? { slug: link.slug, domain: link.domain.name } : {};
  const destinationUrl = sent.destinationUrl === undefined ? link?.destinationUrl : before?.destinationUrl;
  const tags = sent.tags === undefined ? link?.tags : (before?.tags ?? []);
  if (destinationUrl !== undefined) fields['destinationUrl'] = destinationUrl;
  if (tags !== undefined) fields['tags'] = tags;
  // Tags an accepted update names by id exist in the account beforehand.
  const named = after && Array.isArray(sent.tags) ? sent.tags.filter((tag) => typeof tag?.id === 'string') : [];
  return [state('account', key, named.length > 0 ? { tags: named } : {}), state('link', { id, apiKey }, fields)];
}

/**
 * The states for one entry. `apiKey`: the real key of its account, or undefined when it is not known.
 */
export function providerStatesFor(entry: JournalEntry, apiKey: string | undefined, code: string | null, history: readonly JournalEntry[]): ProviderState[] {
  // A 401: nothing at the provider makes a missing or unknown key so.
  if (apiKey === undefined || entry.status === 401) return [];
  return entry.operationId === 'createLink' ? createStates(entry, apiKey, code) : linkStates(entry, apiKey, history);
}
