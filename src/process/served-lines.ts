// The banner's short table of how a contract FILE is served (--contract; D32): each kind of
// operation with its operationIds, and the fields FILE adds or removes. GET /__admin/contract has
// the same as JSON, with every field's pointer.
import type { ServedContract } from '../admin/contract-routes.js';

const OPERATION_KINDS = [
  ['rule', 'by rule'],
  ['store', 'from the store'],
  ['generated', 'generated from the schema'],
  ['gone', 'gone'],
] as const;

const FIELD_KINDS = [
  ['generated', 'generated and stored'],
  ['request', 'stored from the request'],
  ['ignored', 'validated, not stored'],
  ['gone', 'gone'],
] as const;

/** Names shown per kind on a banner or reload line; the rest are counted (a 200-operation FILE stays a short table). */
export const MAX_NAMES_PER_KIND = 8;

/** `names`, the first MAX_NAMES_PER_KIND of them, then how many more (all of them: GET /__admin/contract). */
export function someNames(names: readonly string[]): string {
  if (names.length <= MAX_NAMES_PER_KIND) return names.join(', ');
  return `${names.slice(0, MAX_NAMES_PER_KIND).join(', ')} and ${names.length - MAX_NAMES_PER_KIND} more`;
}

export function servedLines(served: ServedContract): string[] {
  const operations = OPERATION_KINDS.flatMap(([kind, label]) => {
    const names = served.operations.filter((operation) => operation.served === kind).map((operation) => operation.operationId);
    return names.length ? [`${label}: ${someNames(names)}`] : [];
  });
  const fields = FIELD_KINDS.flatMap(([kind, label]) => {
    const names = served.fields.filter((field) => field.served === kind).map((field) => `${field.of}.${field.name}`);
    return names.length ? [`${label}: ${someNames(names)}`] : [];
  });
  return [
    `  served     ${served.version ? `version ${served.version}; ` : ''}${operations.join('; ')} (GET /__admin/contract)`,
    ...(fields.length ? [`  fields     ${fields.join('; ')}`] : []),
  ];
}

/**
 * What a reloaded contract (--watch) serves differently, in one line: each operation and field
 * whose way of being served changed, new or no longer in FILE, with the version when it moved.
 */
export function contractChanges(before: ServedContract, after: ServedContract): string {
  const version = before.version === after.version ? `version ${after.version}` : `version ${before.version || '?'} -> ${after.version || '?'}`;
  const operations = moved(before.operations, after.operations, (operation) => operation.operationId, (operation) => labelOf(OPERATION_KINDS, operation.served));
  const fields = moved(before.fields, after.fields, (field) => `${field.of}.${field.name}`, (field) => labelOf(FIELD_KINDS, field.served));
  const changes = [...operations, ...fields];
  return `${version}; ${changes.length ? someChanges(changes) : 'every operation and field served as before'} (GET /__admin/contract)`;
}

/** Like someNames, for the reload line's changes (each "name: how (was how)"). */
function someChanges(changes: readonly string[]): string {
  if (changes.length <= MAX_NAMES_PER_KIND * 2) return changes.join('; ');
  return `${changes.slice(0, MAX_NAMES_PER_KIND * 2).join('; ')}; and ${changes.length - MAX_NAMES_PER_KIND * 2} more changes`;
}

function moved<T>(before: readonly T[], after: readonly T[], name: (item: T) => string, label: (item: T) => string): string[] {
  const was = new Map(before.map((item) => [name(item), label(item)]));
  const now = new Map(after.map((item) => [name(item), label(item)]));
  const changed = [...now].flatMap(([key, served]) => {
    const earlier = was.get(key);
    if (earlier === served) return [];
    return [`${key}: ${served} (${earlier === undefined ? 'new' : `was ${earlier}`})`];
  });
  const left = [...was.keys()].filter((key) => !now.has(key)).map((key) => `${key}: no longer in the file (was ${was.get(key) ?? ''})`);
  return [...changed, ...left];
}

function labelOf(kinds: readonly (readonly [string, string])[], served: string): string {
  return kinds.find(([kind]) => kind === served)?.[1] ?? served;
}
