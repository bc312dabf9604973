// Which dimensions a seed turns on. Per operation and field (or envelope part), a seed either
// leaves it as it is or picks one of its variants; `only` turns on exactly the dimensions it names
// (one per field, the seed choosing among several), `except` keeps some off. The choice is fixed
// per seed, not per request, so that a rerun with a subset of a seed's dimensions (the robustness
// runner's shrinking, with `only`) gives each answer the same variants again.
import type { BodyDimension, Dimension, IdShape } from './dimensions.js';
import { seededDraw } from './seeded.js';

export interface VarietySettings {
  seed: number;
  only?: readonly string[] | null;
  except?: readonly string[] | null;
}

export interface OperationPlan {
  seed: number;
  body: BodyDimension[];
  /** The id generator's shape for a link created now (undefined: the usual one). */
  idShape?: { shape: IdShape; dimension: string; maxLength: number };
  envelope: { noCharset?: string; chunked?: string; gzip?: string };
  /** A next contract's new fields whose dimension is off: left out of the answer, as today's contract has it. */
  withheld?: { field: string; statuses: number[] }[];
  /** A next contract's status answered instead of the usual one (its dimension's name, status and body). */
  forced?: { dimension: string; status: number; body: unknown };
}

export type VarietyPlan = ReadonlyMap<string, OperationPlan>;

export function planOf(catalogue: readonly Dimension[], settings: VarietySettings): VarietyPlan {
  const only = settings.only ? new Set(settings.only) : undefined;
  const except = new Set(settings.except ?? []);
  const kept = catalogue.filter((dimension) => !except.has(dimension.name) && (!only || only.has(dimension.name)));
  const plan = new Map<string, OperationPlan>();
  const on = turnedOn(kept, settings.seed, only !== undefined);
  for (const chosen of on) add(plan, chosen, settings.seed);
  // A next contract's new field is sent only when its dimension is on (next-dimensions.ts), whatever else is kept.
  for (const dimension of catalogue) {
    if (dimension.kind !== 'body' || !dimension.withheldWhenOff || on.includes(dimension)) continue;
    (operationPlan(plan, dimension.operationId, settings.seed).withheld ??= []).push({ field: dimension.field, statuses: dimension.statuses });
  }
  return plan;
}

/** A dimension's group, `<operationId>.<field or part>`: its name before the variant. */
export const groupOf = (name: string): string => name.slice(0, name.lastIndexOf(':'));

/**
 * The dimensions a seed turns on among `candidates` (in the catalogue's order): per group one or
 * none. By names alone, so that the robustness runner can tell, from the names the mock lists,
 * which dimensions a seed will vary (seeds.ts).
 */
export function turnedOn<T extends { name: string }>(candidates: readonly T[], seed: number, only = false): T[] {
  const groups = new Map<string, T[]>();
  for (const dimension of candidates) {
    const group = groupOf(dimension.name);
    groups.set(group, [...(groups.get(group) ?? []), dimension]);
  }
  const on: T[] = [];
  for (const [group, members] of groups) {
    const draw = seededDraw(seed, group);
    // Without `only`, "as it is" is one more choice beside each variant, all equally likely: a seed
    // mixes some variants, not all, and each variant is on for one seed in (variants + 1).
    const chosen = members[only ? draw(members.length) : draw(members.length + 1)];
    if (chosen) on.push(chosen);
  }
  return on;
}

function operationPlan(plan: Map<string, OperationPlan>, operationId: string, seed: number): OperationPlan {
  let operation = plan.get(operationId);
  if (!operation) plan.set(operationId, (operation = { seed, body: [], envelope: {} }));
  return operation;
}

function add(plan: Map<string, OperationPlan>, dimension: Dimension, seed: number): void {
  const operation = operationPlan(plan, dimension.operationId, seed);
  if (dimension.kind === 'body') operation.body.push(dimension);
  else if (dimension.kind === 'status') operation.forced = { dimension: dimension.name, status: dimension.status, body: dimension.body };
  else if (dimension.kind === 'id') operation.idShape = { shape: dimension.variant as IdShape, dimension: dimension.name, maxLength: dimension.maxLength ?? 0 };
  else if (dimension.field === 'content-type') operation.envelope.noCharset = dimension.name;
  else if (dimension.field === 'framing') operation.envelope.chunked = dimension.name;
  else operation.envelope.gzip = dimension.name;
}
