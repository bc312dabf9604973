// How the contract's checker words a broken rule (response-checker.ts): a rule that reads the same
// for every answer that breaks it alike, and this one answer's evidence beside it.
import type { ErrorObject } from 'ajv';

/** A rule broken, and the evidence of this one answer (the offending value), if any. */
export interface Problem {
  rule: string;
  detail?: string;
  /** How the two read as one sentence: ' (got …)' by default. */
  joiner?: string;
  /** Set on a body's schema errors: the schema it fails. */
  schemaName?: string;
}

/** "body.createdAt must match format "date-time" (got "yesterday")" */
export function problemText(problem: Problem): string {
  if (problem.detail === undefined) return problem.rule;
  return problem.joiner ? `${problem.rule}${problem.joiner}${problem.detail}` : `${problem.rule} (got ${problem.detail})`;
}

/** One Ajv error in words that name the field, e.g. rule "body.createdAt must match format "date-time"", detail '"yesterday"'. */
export function describeError(error: ErrorObject, root = 'body'): Problem {
  const where = fieldPath(root, error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return { rule: `${where} is missing required field '${String(params['missingProperty'])}'` };
  if (error.keyword === 'additionalProperties') return { rule: `${where} has unexpected field '${String(params['additionalProperty'])}'` };
  return { rule: `${where} ${error.message ?? 'is invalid'}`, detail: error.keyword === 'maxItems' ? itemCount(error.data) : preview(error.data) };
}

/** The same with the rule general (indices `[]`, unexpected fields unnamed) and the concrete field in the evidence. */
export function describeGeneral(error: ErrorObject): Problem {
  const problem = describeError(error);
  const where = fieldPath('body', error.instancePath);
  const general = where.replace(/\[\d+\]/g, '[]');
  if (error.keyword === 'additionalProperties') return { rule: `${general} has an unexpected field`, detail: `${where}.${String((error.params as Record<string, unknown>)['additionalProperty'])}`, joiner: ': ' };
  if (general === where) return problem;
  const rule = general + problem.rule.slice(where.length);
  return { rule, detail: problem.detail === undefined ? where : `${where}: ${problem.detail}` };
}

/** "/tags/17/id" under "body" → "body.tags[17].id" */
export function fieldPath(root: string, instancePath: string): string {
  return root + instancePath.split('/').slice(1).map((key) => (/^\d+$/.test(key) ? `[${key}]` : `.${key.replace(/~1/g, '/').replace(/~0/g, '~')}`)).join('');
}

/** A maxItems error's evidence: how many there were (the array itself would be previewed whole). */
export const itemCount = (data: unknown): string => (Array.isArray(data) ? `${data.length} items` : String(data));

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

