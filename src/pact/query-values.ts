// A query string as Pact V3 writes a query: each name with the list of its values, in order.
// The names are the client's: `__proto__`, `constructor` or `toString` are names like any other,
// so the object has no prototype for them to collide with (a plain `{}` answered `?constructor=1`
// with Object's own function, and `pact export` crashed for every client while that entry was in
// the journal). JSON.stringify writes such an object as any other.

/** `a=1&a=2&b=3` → { a: ['1', '2'], b: ['3'] }, with a null prototype. */
export function queryValues(query: string): Record<string, string[]> {
  const values = Object.create(null) as Record<string, string[]>;
  for (const [name, value] of new URLSearchParams(query)) (values[name] ??= []).push(value);
  return values;
}
