// The spec diff beside the verdicts: every rule of rules/ run on --from and NEXT, each change with
// the consumers whose recorded findings are its evidence. So a change breaking by rule that no
// consumer meets, and an additive one that hits a consumer, both show.
import type { ConsumerVerdict, FindingRow } from './consumers.js';
import type { ContractView } from './contract-view.js';
import { operationShapes, type OperationShape } from './schema-fields.js';
import { operationAdded } from './rules/operation-added.js';
import { operationRemoved } from './rules/operation-removed.js';
import { pathParameterRule } from './rules/path-parameter-changed.js';
import { propertyTypeChanged } from './rules/property-type-changed.js';
import { requestMediaTypeRule } from './rules/request-media-type-removed.js';
import { requestPropertyAdded } from './rules/request-property-added.js';
import { requestPropertyBecameRequired } from './rules/request-property-became-required.js';
import { requestPropertyEnumValueRemoved } from './rules/request-property-enum-value-removed.js';
import { requestPropertyMaxItemsDecreased } from './rules/request-property-max-items-decreased.js';
import { requestPropertyMaxLengthDecreased } from './rules/request-property-max-length-decreased.js';
import { requestPropertyPatternChanged } from './rules/request-property-pattern-changed.js';
import { requestPropertyRemoved } from './rules/request-property-removed.js';
import { responsePropertyAdded } from './rules/response-property-added.js';
import { responsePropertyBecameOptional } from './rules/response-property-became-optional.js';
import { responsePropertyEnumValueAdded } from './rules/response-property-enum-value-added.js';
import { responsePropertyRemoved } from './rules/response-property-removed.js';
import { responseStatusAdded } from './rules/response-status-added.js';
import { responseStatusRemoved } from './rules/response-status-removed.js';
import { securityRule } from './rules/security-changed.js';
import type { Change, Level, Rule } from './rules/rule.js';

export interface SpecChange {
  rule: string;
  level: Level;
  pointer: string;
  change: string;
  operationId: string;
  breakingByRule: boolean;
  consumers: string[];
}

function rules(from: ContractView, next: ContractView): Rule[] {
  const view = (side: 'from' | 'next'): ContractView => (side === 'from' ? from : next);
  const operationOf = (shape: OperationShape, side: 'from' | 'next') => view(side).operation(shape.operationId);
  return [
    operationRemoved,
    operationAdded,
    securityRule((shape, side) => operationOf(shape, side)?.securityHeaders ?? []),
    pathParameterRule((shape, side) => new Map((operationOf(shape, side)?.pathParameters ?? []).map((parameter) => [parameter.name, JSON.stringify(parameter.schema)]))),
    requestMediaTypeRule((shape, side) => operationOf(shape, side)?.requestMediaTypes ?? []),
    requestPropertyRemoved,
    requestPropertyBecameRequired,
    requestPropertyAdded,
    requestPropertyMaxLengthDecreased,
    requestPropertyMaxItemsDecreased,
    requestPropertyPatternChanged,
    requestPropertyEnumValueRemoved,
    propertyTypeChanged,
    responseStatusRemoved,
    responseStatusAdded,
    responsePropertyRemoved,
    responsePropertyBecameOptional,
    responsePropertyAdded,
    responsePropertyEnumValueAdded,
  ];
}

export function specDiff(from: ContractView, next: ContractView, verdicts: ConsumerVerdict[]): SpecChange[] {
  const before = operationShapes(from.contract);
  const after = operationShapes(next.contract);
  const levels: Level[] = ['error', 'warn', 'info'];
  // Breaking by rule first, then by where in the spec: the same order on every run.
  const changes = rules(from, next)
    .flatMap((rule) => rule.check(before, after))
    .sort((a, b) => levels.indexOf(a.level) - levels.indexOf(b.level) || a.pointer.localeCompare(b.pointer) || a.change.localeCompare(b.change));
  return changes.map((change) => ({
    rule: change.rule,
    level: change.level,
    pointer: change.pointer,
    change: change.change,
    operationId: change.operationId,
    breakingByRule: change.level === 'error',
    consumers: verdicts.filter((verdict) => [...verdict.breaking, ...verdict.changed].some((row) => isEvidence(row, change))).map((verdict) => verdict.consumer),
  }));
}

/** Whether a consumer's finding is evidence of the change: its operation, its field (array items as `*`), its kind of reason. */
function isEvidence(row: FindingRow, change: Change): boolean {
  if (!change.hits || row.operationId !== change.operationId) return false;
  const { field, reasonHas } = change.hits;
  if (reasonHas !== undefined && !row.reason.startsWith(reasonHas) && !row.reason.includes(reasonHas)) return false;
  return field === undefined || row.pointer.replace(/\/\d+(?=\/|$)/g, '/*') === field;
}
