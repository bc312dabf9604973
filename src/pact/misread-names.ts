// Names swagger-mock-validator cannot be handed: the members every JavaScript object has
// (constructor, __proto__, toString, ...). It builds a schema keyed by query and header names and
// throws on these ("schema is invalid"), failing the whole pact. No API declares them, yet a client
// may send one (`?constructor=1`), and `pact export` writes what the journal holds, so a query of
// such a name is kept from the engine and judged by the mock's own checks (own-checks.ts).

/** Names of members every JavaScript object has. */
const OBJECT_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** True for a name the engine misreads. */
export function engineMisreads(name: string): boolean {
  return OBJECT_MEMBERS.has(name);
}

/** The query names of a V2 query string or a V3/V4 query object, in order. */
export function queryNames(query: string | Record<string, string[]> | undefined): string[] {
  if (query === undefined) return [];
  return typeof query === 'string' ? [...new Set(new URLSearchParams(query).keys())] : Object.keys(query);
}
