// Which fields of an answer NEXT would let the provider leave out where --from required them:
// each present field is taken out in turn and the body judged again (`leftOut`). Cached by the
// operation, status and field, so a journal of thousands of like answers pays for one of each.
// Bounded: MAX_PROBES fields per body, MAX_PROBE_DEPTH levels; an array's first item stands for all.

export const MAX_PROBES = 64;
const MAX_PROBE_DEPTH = 8;

type Json = Record<string, unknown>;

/**
 * The pointers (array items as their first: /tags/0/id) of fields `leftOut` says are newly
 * optional; none when `applies` says the body is not one to probe, asked only once a probe is not
 * known to find nothing (the cache holds each field's verdict).
 */
export function removalProbes(body: unknown, leftOut: (body: unknown) => boolean, cache: Map<string, boolean>, cacheKey: string, applies: () => boolean): string[] {
  const found: string[] = [];
  let checked: boolean | undefined;
  for (const path of fieldPaths(body)) {
    const pointer = `/${path.map(String).map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
    const key = `${cacheKey} ${pointer}`;
    if (cache.get(key) === false) continue;
    checked ??= applies();
    if (!checked) return [];
    let optional = cache.get(key);
    if (optional === undefined) {
      optional = leftOut(without(body, path));
      cache.set(key, optional);
    }
    if (optional) found.push(pointer);
  }
  return found;
}

/** The paths of the body's object fields, breadth first, at most MAX_PROBES. */
function fieldPaths(body: unknown): Array<Array<string | number>> {
  const paths: Array<Array<string | number>> = [];
  const queue: Array<{ node: unknown; path: Array<string | number> }> = [{ node: body, path: [] }];
  while (queue.length > 0 && paths.length < MAX_PROBES) {
    const { node, path } = queue.shift() as { node: unknown; path: Array<string | number> };
    if (path.length >= MAX_PROBE_DEPTH) continue;
    if (Array.isArray(node)) {
      if (node.length > 0) queue.push({ node: node[0], path: [...path, 0] });
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    for (const [key, value] of Object.entries(node)) {
      if (paths.length >= MAX_PROBES) break;
      paths.push([...path, key]);
      queue.push({ node: value, path: [...path, key] });
    }
  }
  return paths;
}

/** A copy of the body without the field at `path` (only the objects on the way are copied). */
function without(body: unknown, path: Array<string | number>): unknown {
  if (path.length === 0) return body;
  const [head, ...rest] = path;
  if (Array.isArray(body)) return body.map((item, index) => (index === head ? (rest.length === 0 ? item : without(item, rest)) : item));
  const copy: Json = { ...(body as Json) };
  if (rest.length === 0) delete copy[head as string];
  else copy[head as string] = without(copy[head as string], rest);
  return copy;
}
