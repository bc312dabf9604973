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
}

export type VarietyPlan = ReadonlyMap<string, OperationPlan>;

export function planOf(catalogue: readonly Dimension[], settings: VarietySettings): VarietyPlan {
  const only = settings.only ? new Set(settings.only) : undefined;
  const except = new Set(settings.except ?? []);
  const groups = new Map<string, Dimension[]>();
  for (const dimension of catalogue) {
    if (except.has(dimension.name) || (only && !only.has(dimension.name))) continue;
    const group = `${dimension.operationId}.${dimension.field}`;
    groups.set(group, [...(groups.get(group) ?? []), dimension]);
  }
  const plan = new Map<string, OperationPlan>();
  for (const [group, candidates] of groups) {
    const draw = seededDraw(settings.seed, group);
    // Without `only`, "as it is" is one more choice beside each variant, all equally likely: a seed
    // mixes some variants, not all, and each variant is on for one seed in (variants + 1).
    const pick = only ? draw(candidates.length) : draw(candidates.length + 1);
    const chosen = candidates[pick];
    if (chosen) add(plan, chosen, settings.seed);
  }
  return plan;
}

function add(plan: Map<string, OperationPlan>, dimension: Dimension, seed: number): void {
  let operation = plan.get(dimension.operationId);
  if (!operation) plan.set(dimension.operationId, (operation = { seed, body: [], envelope: {} }));
  if (dimension.kind === 'body') operation.body.push(dimension);
  else if (dimension.kind === 'id') operation.idShape = { shape: dimension.variant as IdShape, dimension: dimension.name, maxLength: dimension.maxLength ?? 0 };
  else if (dimension.field === 'content-type') operation.envelope.noCharset = dimension.name;
  else if (dimension.field === 'framing') operation.envelope.chunked = dimension.name;
  else operation.envelope.gzip = dimension.name;
}
