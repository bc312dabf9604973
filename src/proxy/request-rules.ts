// The validator's findings on a proxied request as drift rules. A rule must read the same for every
// request that breaks the contract the same way, or one client fills the drift report: a request
// can name any number of unknown fields and array indices. So an unknown field is one rule per
// object it is in ("request body: unknown field", "… unknown field in 'tags[]'"), an index is `[]` in the
// rule ("request body: 'tags[].id' must be string"), and the concrete field is the evidence
// ('tags[17].id'), as a path outside the contract is (request-check.ts).
import type { Violation } from '../core/journal.js';
import type { HttpLikeError } from '../http/errors.js';
import { describeItem, locationWords, mostTellingItems, type ValidationItem } from '../http/validator-findings.js';

const isIndex = (segment: string): boolean => /^\d+$/.test(segment);

export function requestRuleViolations(error: HttpLikeError): Violation[] {
  return mostTellingItems(error).map(violationOf);
}

function violationOf(item: ValidationItem): Violation {
  const segments = (item.path ?? '').split('/');
  const named = segments.filter(Boolean);
  const unknownField = Boolean(item.errorCode?.startsWith('additionalProperties')) && named.length > 1;
  if (!unknownField && !named.some(isIndex)) return { side: 'request', rule: describeItem(item) };
  const detail = `'${bracketed(named.slice(1))}'`;
  if (unknownField) {
    // One rule per object that holds unknown fields, whichever they are.
    const holder = bracketed(named.slice(1, -1).map(generalSegment));
    return { side: 'request', rule: `${locationWords(named[0] ?? '')}: unknown field${holder ? ` in '${holder}'` : ''}`, detail };
  }
  return { side: 'request', rule: describeItem({ ...item, path: segments.map(generalSegment).join('/') }).replace(/\.\[\]/g, '[]'), detail };
}

const generalSegment = (segment: string): string => (isIndex(segment) ? '[]' : segment);

/** ['tags', '17', 'id'] → 'tags[17].id' */
const bracketed = (field: string[]): string => field.map((segment, index) => (isIndex(segment) || segment === '[]' ? `[${segment === '[]' ? '' : segment}]` : index === 0 ? segment : `.${segment}`)).join('');
