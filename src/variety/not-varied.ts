// What variety leaves as it is, and why, for GET /__admin/variety/dimensions and the README: every
// optional field of an answer that no dimension varies (read from the schema, like the dimensions),
// and the freedoms the contract seems to leave but the state or the mode fixes.
import { isCode, operationAnswers, STORED_FACTS, type FieldFreedom } from './contract-fields.js';
import type { Dimension } from './dimensions.js';

export interface NotVaried {
  /** `<operationId>.<field>`, or a part of the mock such as `proxy`. */
  what: string;
  why: string;
}

export function notVaried(document: unknown, catalogue: readonly Dimension[]): NotVaried[] {
  const varied = new Set(catalogue.map(({ operationId, field }) => `${operationId}.${field}`));
  const notes = new Map<string, string>();
  for (const { operationId, statuses } of operationAnswers(document)) {
    for (const freedom of statuses.flatMap(({ fields }) => fields)) {
      const what = `${operationId}.${freedom.field}`;
      if (freedom.optional && !varied.has(what) && !notes.has(what)) notes.set(what, reason(freedom));
      const longest = longestList(freedom);
      if (longest) notes.set(`${what}:longest`, longest);
    }
  }
  return [...notes].map(([what, why]) => ({ what, why }));
}

/**
 * An array's longest (`maxItems`) when its items are stored facts (a link's tags): a longer list in
 * an answer would say the link has items it has not. A client gets it for real by storing that many.
 */
function longestList({ field, schema }: FieldFreedom): string | undefined {
  if (schema.type !== 'array' || schema.maxItems === undefined || !STORED_FACTS.has(field)) return undefined;
  return `'${field}' is a stored fact, so its longest list (${schema.maxItems}) is not made up in an answer (it would say the link has ${field} it has not); create a link with ${schema.maxItems} ${field} to get it, and it round-trips under variety`;
}

function reason(freedom: FieldFreedom): string {
  if (isCode(freedom)) {
    const said = freedom.schema.description ? ` (the contract: "${freedom.schema.description}")` : '';
    return `an enum (${(freedom.schema.enum ?? []).join(', ')}): each value names a condition${said}, so it is sent exactly when that condition holds; dropping or adding it would say another thing`;
  }
  if (STORED_FACTS.has(freedom.field)) return 'a stored fact: the answer says what the store holds';
  return 'the contract leaves no other form of it that keeps its meaning';
}
