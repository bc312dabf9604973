// One answer's body under a plan: each planned field's variant applied to a copy (the body may be
// the store's own object), and the names of the dimensions that changed something.
import type { OperationPlan } from './plan.js';
import { seededDraw } from './seeded.js';
import { ABSENT, NO_CHANGE } from './variants.js';

export interface VariedBody {
  body: unknown;
  /** The dimensions that changed this body. */
  used: string[];
}

export function varyBody(plan: OperationPlan, status: number, body: unknown): VariedBody {
  const used: string[] = [];
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { body, used };
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  let withheld = false;
  for (const { field, statuses } of plan.withheld ?? []) {
    if (!statuses.includes(status) || !Object.hasOwn(copy, field)) continue;
    delete copy[field];
    withheld = true;
  }
  for (const dimension of plan.body) {
    if (!dimension.statuses.includes(status)) continue;
    const present = Object.hasOwn(copy, dimension.field);
    const varied = dimension.variant.apply(copy[dimension.field], present, dimension.freedom, seededDraw(plan.seed, dimension.name));
    if (varied === NO_CHANGE) continue;
    if (varied === ABSENT) delete copy[dimension.field];
    else copy[dimension.field] = varied;
    used.push(dimension.name);
  }
  return { body: used.length || withheld ? copy : body, used };
}
