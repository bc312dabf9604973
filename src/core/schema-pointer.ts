// A schema (or response, or request body) of a contract with the JSON pointer it lives at, its
// local `$ref`s followed (a bounded number of hops: a reference cycle names nothing).

export interface SchemaAt {
  schema: Record<string, unknown>;
  /** Where it lives in the document, `$ref`s followed: `/components/schemas/Link`. */
  pointer: string;
}

/** Reference hops followed before a chain is taken for a cycle. */
const MAX_REF_HOPS = 32;

/** `node` (found at `pointer`) with its `$ref`s followed, or undefined when it is no object or names nothing. */
export function schemaAt(document: unknown, node: unknown, pointer: string): SchemaAt | undefined {
  let [current, at] = [node, pointer];
  for (let hop = 0; hop <= MAX_REF_HOPS; hop++) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    const ref = (current as Record<string, unknown>)['$ref'];
    if (typeof ref !== 'string') return { schema: current as Record<string, unknown>, pointer: at };
    if (!ref.startsWith('#')) return undefined;
    [current, at] = [valueAt(document, ref.slice(1)), ref.slice(1)];
  }
  return undefined;
}

/** The value at a JSON pointer (`/components/schemas/Link`), or undefined. */
export function valueAt(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  if (!pointer.startsWith('/')) return undefined;
  let value: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = decoded(raw)?.replace(/~1/g, '/').replace(/~0/g, '~');
    if (key === undefined) return undefined;
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A `$ref`'s percent-encoding undone; undefined when it is malformed (`%E0`): it names nothing. */
function decoded(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
