// The arrays a schema bounds (`maxItems`), checked in a value before Ajv sees it. Ajv with
// allErrors spends time quadratic in the errors of an array's items (each item's errors are
// concatenated onto all before them): 40,000 tags with a numeric id cost half a minute of CPU. A
// valid body is small where the contract says so (`tags` holds 50 at most), so an array over its
// maxItems is refused first, by its length alone, and nothing deeper is walked.
//
// A schema is read once into a plan of the places that lead to a bounded array; a body is walked
// along that plan only (for openapi.yaml's bodies: one property lookup, `tags`), never whole.

export interface OversizeArray {
  /** Where the array is: property names and item indices from the body's root. */
  path: (string | number)[];
  maxItems: number;
  length: number;
}

export type ArrayBoundsCheck = (value: unknown) => OversizeArray | undefined;

interface Plan {
  maxItems?: number;
  items?: Plan;
  properties?: Map<string, Plan>;
}

type SchemaNode = Record<string, unknown>;

/** The check for values of `schema`, or undefined when it bounds no array (nothing to check). */
export function arrayBoundsOf(document: object, schema: unknown): ArrayBoundsCheck | undefined {
  const plan = planOf(document, schema, new Set());
  return plan && ((value) => oversize(value, plan, []));
}

function planOf(document: object, schema: unknown, refs: Set<string>): Plan | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const node = schema as SchemaNode;
  const ref = node['$ref'];
  // Local references only; a cycle (a schema that contains itself) is followed once.
  if (typeof ref === 'string') return ref.startsWith('#/') && !refs.has(ref) ? planOf(document, resolveLocalRef(document, ref), new Set([...refs, ref])) : undefined;
  const plans: Plan[] = [];
  if (typeof node['maxItems'] === 'number') plans.push({ maxItems: node['maxItems'] });
  const items = planOf(document, node['items'], refs);
  if (items) plans.push({ items });
  const properties = new Map<string, Plan>();
  for (const [name, property] of Object.entries((node['properties'] ?? {}) as SchemaNode)) {
    const plan = planOf(document, property, refs);
    if (plan) properties.set(name, plan);
  }
  if (properties.size) plans.push({ properties });
  // Every member of an allOf holds; anyOf and oneOf members need not, so their bounds are Ajv's.
  for (const member of Array.isArray(node['allOf']) ? node['allOf'] : []) {
    const plan = planOf(document, member, refs);
    if (plan) plans.push(plan);
  }
  return plans.length ? plans.reduce(merge) : undefined;
}

function merge(a: Plan, b: Plan): Plan {
  const maxItems = a.maxItems === undefined ? b.maxItems : b.maxItems === undefined ? a.maxItems : Math.min(a.maxItems, b.maxItems);
  const items = a.items && b.items ? merge(a.items, b.items) : (a.items ?? b.items);
  const properties = new Map(a.properties);
  for (const [name, plan] of b.properties ?? []) {
    const other = properties.get(name);
    properties.set(name, other ? merge(other, plan) : plan);
  }
  return { ...(maxItems === undefined ? {} : { maxItems }), ...(items ? { items } : {}), ...(properties.size ? { properties } : {}) };
}

function oversize(value: unknown, plan: Plan, path: (string | number)[]): OversizeArray | undefined {
  if (Array.isArray(value)) {
    if (plan.maxItems !== undefined && value.length > plan.maxItems) return { path, maxItems: plan.maxItems, length: value.length };
    if (!plan.items) return undefined;
    for (let index = 0; index < value.length; index++) {
      const found = oversize(value[index], plan.items, [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null || !plan.properties) return undefined;
  for (const [name, inner] of plan.properties) {
    if (!Object.hasOwn(value, name)) continue;
    const found = oversize((value as SchemaNode)[name], inner, [...path, name]);
    if (found) return found;
  }
  return undefined;
}

/** What a local reference ('#/components/...') points at in the document; undefined for any other. */
export function resolveLocalRef(document: object, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node as SchemaNode | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

/** Ajv's own words for it, so a refusal reads the same whichever found it. */
export const tooManyItems = (maxItems: number): string => `must NOT have more than ${maxItems} items`;

/**
 * A copy of the value in which each array over its bound is cut to one item past it: still refused
 * alike, but cheap to judge, for a judge without bounds of its own (pact check's engine). At most
 * `times` arrays are cut (each cut walks the plan again).
 */
export function cutOversizeArrays(check: ArrayBoundsCheck, value: unknown, times = 100): unknown {
  let cut = value;
  for (let round = 0; round < times; round++) {
    const found = check(cut);
    if (!found) break;
    cut = withArrayCut(cut, found.path, found.maxItems + 1);
  }
  return cut;
}

function withArrayCut(value: unknown, path: (string | number)[], length: number): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return (value as unknown[]).slice(0, length);
  if (Array.isArray(value)) return value.map((item: unknown, index) => (index === head ? withArrayCut(item, rest, length) : item));
  const copy = { ...(value as SchemaNode) };
  copy[head] = withArrayCut(copy[head], rest, length);
  return copy;
}
