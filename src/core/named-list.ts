// A list in a sentence, bounded: what a 404 for a path the contract lacks names (a 200-operation
// contract FILE keeps the answer short), and the landing page too.

/** Names listed; the rest are counted. */
export const MAX_NAMED = 8;

/** `a, b and c`; past MAX_NAMED, the first MAX_NAMED and how many more; `''` for none. */
export function namedList(names: readonly string[]): string {
  const named = names.slice(0, MAX_NAMED);
  const last = names.length > MAX_NAMED ? `${names.length - MAX_NAMED} more` : named.pop();
  if (last === undefined) return '';
  return named.length === 0 ? last : `${named.join(', ')} and ${last}`;
}
