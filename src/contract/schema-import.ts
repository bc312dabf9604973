// Schemas copied from OpenAPI documents into another document's components.schemas, each with every
// schema it refers to, the `$ref`s rewritten to the copies. The admin document takes the API's
// schemas this way from two documents at once, a contract FILE and the shipped openapi.yaml
// (admin-document.ts), so a name is not enough to say which schema it is: a name two documents use
// for different schemas gets a suffix, and a schema equal in both, with everything it refers to,
// is copied once under its own name (the shipped contract served as FILE adds nothing).
// Only local references are followed (`#/…`): a FILE's are checked to be local and to name
// something at start (contract-references.ts), and the shipped contract's are.
import { valueAt } from '../core/schema-pointer.js';

interface Origin {
  document: unknown;
  pointer: string;
}

/** What a component name may be made of (OpenAPI 3's components key pattern). */
const NAME_CHARACTERS = /[^A-Za-z0-9._-]/g;

export class SchemaImport {
  /** Per source document: the pointer of each schema copied, and its name in the target. */
  private readonly names = new Map<unknown, Map<string, string>>();
  private readonly origins = new Map<string, Origin>();
  private readonly pending: (Origin & { name: string })[] = [];

  /** `schemas`: the target's components.schemas; the names already there (the target's own) are never taken. */
  constructor(private readonly schemas: Record<string, unknown>) {}

  /** The target's `$ref` to the schema at `pointer` in `document`, copied (with all it refers to) if it is not yet. */
  ref(document: unknown, pointer: string, preferredName?: string): string {
    const name = this.nameOf({ document, pointer }, preferredName);
    // Iterative, not recursive: a chain of references as long as a 5 MiB FILE can hold is no stack's depth.
    for (let next = this.pending.pop(); next; next = this.pending.pop()) {
      this.schemas[next.name] = this.copied(next.document, valueAt(next.document, next.pointer));
    }
    return `#/components/schemas/${name}`;
  }

  private nameOf(origin: Origin, preferredName?: string): string {
    let named = this.names.get(origin.document);
    if (!named) this.names.set(origin.document, (named = new Map()));
    const known = named.get(origin.pointer);
    if (known !== undefined) return known;
    const base = (preferredName ?? lastSegment(origin.pointer)).replace(NAME_CHARACTERS, '_') || 'Schema';
    for (let suffix = 1; ; suffix++) {
      const name = suffix === 1 ? base : `${base}_${suffix}`;
      const owner = this.origins.get(name);
      if (owner && sameClosure(owner, origin)) {
        named.set(origin.pointer, name);
        return name;
      }
      if (owner || Object.hasOwn(this.schemas, name)) continue;
      named.set(origin.pointer, name);
      this.origins.set(name, origin);
      this.pending.push({ ...origin, name });
      return name;
    }
  }

  /** A copy of `node` (a schema of `document`) whose local `$ref`s name the copies. Recursive in the
   *  nesting of one schema only, which a FILE bounds (64 levels, contract-limits.ts). */
  private copied(document: unknown, node: unknown): unknown {
    if (typeof node !== 'object' || node === null) return node;
    if (Array.isArray(node)) return node.map((item) => this.copied(document, item));
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `#/components/schemas/${this.nameOf({ document, pointer: value.slice(1) })}` : this.copied(document, value),
      ]),
    );
  }
}

/** The last segment of a JSON pointer, unescaped: the name a schema is known by in its document. */
function lastSegment(pointer: string): string {
  const raw = pointer.slice(pointer.lastIndexOf('/') + 1);
  let segment: string;
  try {
    segment = decodeURIComponent(raw);
  } catch {
    segment = raw;
  }
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The same schemas at the same pointers, all the way down their references. */
function sameClosure(a: Origin, b: Origin): boolean {
  return closureText(a) === closureText(b);
}

/** Each schema `origin` reaches through its references, with its pointer, in the order a walk meets them. */
function closureText(origin: Origin): string {
  const seen = new Set<string>();
  const parts: unknown[] = [];
  const stack = [origin.pointer];
  while (stack.length > 0) {
    const pointer = stack.pop() as string;
    if (seen.has(pointer)) continue;
    seen.add(pointer);
    const node = valueAt(origin.document, pointer);
    parts.push(pointer, node);
    stack.push(...refsIn(node).reverse());
  }
  return JSON.stringify(parts);
}

/** The local references in a schema, in document order (iterative: nesting is no stack's depth). */
function refsIn(node: unknown): string[] {
  const refs: string[] = [];
  const stack = [node];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    const ref = (value as Record<string, unknown>)['$ref'];
    if (typeof ref === 'string' && ref.startsWith('#')) refs.push(ref.slice(1));
    stack.push(...Object.values(value).reverse());
  }
  return refs;
}
