// A spec-diff rule (STYLE.md item 18, after oasdiff's checker/): an id, a level (error: breaking
// by rule; warn; info) and a check of --from against NEXT that lists its changes. Each change says
// which recorded findings are its evidence (`hits`), so the report names the consumers it hits.
import type { Field, Fields, OperationShape } from '../schema-fields.js';
import { escapePointer } from '../schema-fields.js';

export type Level = 'error' | 'warn' | 'info';

export type Shapes = Map<string, OperationShape>;

export interface Change {
  rule: string;
  level: Level;
  /** Where in NEXT (or --from, for what NEXT lost) the change is, as a JSON pointer into the spec. */
  pointer: string;
  change: string;
  operationId: string;
  /** A finding is this change's evidence when it is on operationId and matches these; null: no finding can be. */
  hits: { field?: string; reasonHas?: string } | null;
}

export interface Rule {
  id: string;
  level: Level;
  check(from: Shapes, next: Shapes): Change[];
}

/** The operations in both contracts (same method and path), with both shapes. */
export function inBoth(from: Shapes, next: Shapes): Array<[OperationShape, OperationShape]> {
  return [...from.entries()].flatMap(([key, was]) => {
    const now = next.get(key);
    return now ? [[was, now] as [OperationShape, OperationShape]] : [];
  });
}

/** The spec pointer of a body field: the operation's request or answer schema, then properties/…. */
export function fieldPointer(operation: OperationShape, side: 'request' | string, field: string): string {
  const body = side === 'request' ? 'requestBody' : `responses/${side}`;
  const inside = field
    .split('/')
    .slice(1)
    .map((part) => (part === '*' ? 'items' : `properties/${part}`))
    .join('/');
  return `${operation.pointer}/${body}/content/application~1json/schema/${inside}`;
}

/** The fields of each side both contracts have: the request, and every status both document. */
export function sidesInBoth(was: OperationShape, now: OperationShape): Array<{ side: string; before: Fields; after: Fields }> {
  const sides: Array<{ side: string; before: Fields; after: Fields }> = [];
  if (was.request && now.request) sides.push({ side: 'request', before: was.request, after: now.request });
  for (const [status, before] of was.responses) {
    const after = now.responses.get(status);
    if (before && after) sides.push({ side: status, before, after });
  }
  return sides;
}

/** What a finding of that side says first: `request body …` or `answer …`. */
export const reasonOfSide = (side: string): string => (side === 'request' ? 'request body' : 'answer');

export { escapePointer };

/** What an operation rule says of one change: the rest (rule, level, operation) is filled in. */
export type OperationChange = Pick<Change, 'pointer' | 'change' | 'hits'>;

/** A rule over each operation both contracts have: `judge` lists its changes (none: []). */
export function operationRule(id: string, level: Level, judge: (was: OperationShape, now: OperationShape) => OperationChange[]): Rule {
  return {
    id,
    level,
    check: (from, next) => inBoth(from, next).flatMap(([was, now]) => judge(was, now).map((change) => ({ rule: id, level, operationId: now.operationId, ...change }))),
  };
}

/** A field's change as a rule sees it: the side, the field, its schema before and after (undefined: absent). */
export interface FieldPair {
  side: string;
  field: string;
  before: Field | undefined;
  after: Field | undefined;
}

/**
 * The changes a field rule finds: `judge` is called for every field of every side both contracts
 * have, and says what changed (or undefined). The change is pointed at NEXT's field, or --from's
 * when NEXT lost it; its evidence is a finding on that field of that side.
 */
export function fieldRule(id: string, level: Level, judge: (pair: FieldPair) => string | undefined): Rule {
  return {
    id,
    level,
    check: (from, next) =>
      inBoth(from, next).flatMap(([was, now]) =>
        sidesInBoth(was, now).flatMap(({ side, before, after }) =>
          [...new Set([...before.keys(), ...after.keys()])].flatMap((field) => {
            const said = judge({ side, field, before: before.get(field), after: after.get(field) });
            if (said === undefined) return [];
            const where = side === 'request' ? 'request body' : `response ${side}`;
            const pointer = fieldPointer(after.has(field) ? now : was, side, field);
            return [{ rule: id, level, pointer, change: `${where} ${field}: ${said}`, operationId: now.operationId, hits: { field, reasonHas: reasonOfSide(side) } }];
          }),
        ),
      ),
  };
}
