// The provider states a Pact file exported from the journal names (src/pact/) and that the mock can
// set up again (POST /__admin/provider-states, src/core/provider-states.ts). One table, so the names
// written and the names understood cannot drift apart. Values stand inside the names, as Pact users
// write them ("an account with API key demo-key"), and again in the state's params; a name alone,
// as a hand-written pact may have it, is enough to read them back. Pure: no HTTP, no store.

export const PROVIDER_STATES = {
  account: 'an account with API key {apiKey}',
  roomForLink: 'the account of {apiKey} has room for a link',
  atLinkLimit: 'the account of {apiKey} has reached its link limit',
  link: 'a link {id} exists for the account of {apiKey}',
  noLink: 'no link {id}',
  slugTaken: 'slug {slug} is taken in {domain}',
  slugFree: 'slug {slug} is free in {domain}',
} as const;

export type ProviderStateKind = keyof typeof PROVIDER_STATES;

export interface NamedState {
  kind: ProviderStateKind;
  /** The values of the name's placeholders, e.g. { apiKey: 'demo-key' }. */
  values: Record<string, string>;
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** The state's name with its values in place: stateName('noLink', { id: 'lnk_1' }) → 'no link lnk_1'. */
export function stateName(kind: ProviderStateKind, values: Readonly<Record<string, string>>): string {
  return PROVIDER_STATES[kind].replace(PLACEHOLDER, (_whole, field: string) => {
    const value = values[field];
    if (value === undefined) throw new Error(`provider state '${PROVIDER_STATES[kind]}' needs a value for ${field}`);
    return value;
  });
}

const escape = (text: string): string => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

// Each template as an anchored pattern whose groups are its placeholders; values may hold spaces
// (a domain never does, an API key may), so each group takes as little as the rest allows.
const PATTERNS = (Object.keys(PROVIDER_STATES) as ProviderStateKind[]).map((kind) => {
  const fields: string[] = [];
  const source = PROVIDER_STATES[kind]
    .split(PLACEHOLDER)
    .map((part, index) => (index % 2 === 1 ? (fields.push(part), '(.+?)') : escape(part)))
    .join('');
  return { kind, fields, pattern: new RegExp(`^${source}$`) };
});

/** Which state a name is, with its values; undefined for a name the mock does not know. */
export function parseStateName(name: string): NamedState | undefined {
  for (const { kind, fields, pattern } of PATTERNS) {
    const match = pattern.exec(name);
    if (match) return { kind, values: Object.fromEntries(fields.map((field, index) => [field, match[index + 1] as string])) };
  }
  return undefined;
}

/** Every name the mock understands, for the message that refuses another. */
export const knownStateNames = (): string[] => Object.values(PROVIDER_STATES);
