// Which fields of an answer NEXT would let the provider leave out where --from required them:
// each present field is taken out in turn and the body judged again (`leftOut`). Cached by the
// operation, status and field (a trie of field names), so a journal of thousands of like answers
// pays for one probe of each, and a look-up by name per field.
// Bounded: MAX_PROBES fields per body, MAX_PROBE_DEPTH levels; an array's first item stands for all.

export const MAX_PROBES = 64;
const MAX_PROBE_DEPTH = 8;

type Json = Record<string, unknown>;

/**
 * One field's place in the answers of one operation and status, and what its probe found: a trie by
 * field name (an array's first item by 0), so that a body's fields are looked up by the keys it has,
 * without writing a pointer per field per body (that was most of a large journal's time).
 */
export interface ProbeNode {
  path: ReadonlyArray<string | number>;
  pointer: string;
  /** Whether NEXT lets the field be left out where --from required it; undefined: not probed yet. */
  optional?: boolean;
  children?: Map<string | number, ProbeNode>;
}

/** The probes' trie of each operation and status (by the caller's key). */
export type ProbeCache = Map<string, ProbeNode>;

/**
 * The pointers (array items as their first: /tags/0/id) of fields `leftOut` says are newly
 * optional, breadth first, at most MAX_PROBES fields, MAX_PROBE_DEPTH levels deep; none when
 * `applies` says the body is not one to probe, asked only once a probe is not known to find nothing
 * (the cache holds each field's verdict).
 */
export function removalProbes(body: unknown, leftOut: (body: unknown) => boolean, cache: ProbeCache, cacheKey: string, applies: () => boolean): string[] {
  let root = cache.get(cacheKey);
  if (!root) cache.set(cacheKey, (root = { path: [], pointer: '' }));
  const found: string[] = [];
  let checked: boolean | undefined;
  let fields = 0;
  const queue: Array<{ value: unknown; node: ProbeNode }> = [{ value: body, node: root }];
  for (let next = 0; next < queue.length && fields < MAX_PROBES; next++) {
    const { value, node } = queue[next] as { value: unknown; node: ProbeNode };
    if (node.path.length >= MAX_PROBE_DEPTH) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) queue.push({ value: value[0], node: childOf(node, 0) });
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    for (const key of Object.keys(value)) {
      if (fields >= MAX_PROBES) break;
      fields += 1;
      const field = childOf(node, key);
      queue.push({ value: (value as Json)[key], node: field });
      if (field.optional === false) continue;
      checked ??= applies();
      if (!checked) return [];
      field.optional ??= leftOut(without(body, field.path));
      if (field.optional) found.push(field.pointer);
    }
  }
  return found;
}

function childOf(node: ProbeNode, key: string | number): ProbeNode {
  node.children ??= new Map();
  let child = node.children.get(key);
  if (!child) node.children.set(key, (child = { path: [...node.path, key], pointer: `${node.pointer}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}` }));
  return child;
}

/** A copy of the body without the field at `path` (only the objects on the way are copied). */
function without(body: unknown, path: ReadonlyArray<string | number>): unknown {
  if (path.length === 0) return body;
  const [head, ...rest] = path;
  if (Array.isArray(body)) return body.map((item, index) => (index === head ? (rest.length === 0 ? item : without(item, rest)) : item));
  const copy: Json = { ...(body as Json) };
  if (rest.length === 0) delete copy[head as string];
  else copy[head as string] = without(copy[head as string], rest);
  return copy;
}
