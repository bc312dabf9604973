// What each variant does to one field of an answer, and to which fields it applies, judged by the
// field's schema (contract-fields.ts). A variant returns the field's new value, ABSENT to drop it,
// or NO_CHANGE when this answer gives it nothing to change (then it is not counted as used).
import { isCode, STORED_FACTS, type FieldFreedom } from './contract-fields.js';
import type { Draw } from './seeded.js';
import { LONGEST_WITHOUT_MAX, longest, NON_ASCII_SAMPLES, withFractionDigits, withOffset } from './text-forms.js';

export const ABSENT = Symbol('absent');
export const NO_CHANGE = Symbol('no change');
export type Varied = unknown;

export interface Variant {
  name: string;
  description: (field: string, freedom: FieldFreedom) => string;
  appliesTo: (freedom: FieldFreedom) => boolean;
  /** `present`: whether the answer has the field; `value` its value then. */
  apply: (value: unknown, present: boolean, freedom: FieldFreedom, draw: Draw) => Varied;
}

const isFact = (freedom: FieldFreedom): boolean => STORED_FACTS.has(freedom.field) || isCode(freedom);
/** Free text: a string of no format and no pattern but plain text's (any text the answer's meaning allows). */
// A field with a `pattern` of its own (a next contract's campaignCode: ^[A-Z]{3}-[0-9]{4}$, issue 38)
// is not free: a longer or non-ASCII form would break it.
const isFreeText = (freedom: FieldFreedom): boolean => freedom.schema.type === 'string' && !freedom.schema.format && !freedom.schema.pattern && !freedom.schema.enum && !isFact(freedom);
const isFreeInteger = (freedom: FieldFreedom): boolean => freedom.schema.type === 'integer' && !isFact(freedom);
/** A required text carries the answer's message (errorDescription): a variant keeps it and adds to it. */
const keepsMessage = (freedom: FieldFreedom, value: unknown, present: boolean): string | undefined => (!freedom.optional && present && typeof value === 'string' ? value : undefined);
const unchangedUnless = (before: unknown, after: unknown): Varied => (before === after ? NO_CHANGE : after);

export const VARIANTS: readonly Variant[] = [
  {
    name: 'absent',
    description: (field) => `'${field}' left out (the contract does not require it)`,
    appliesTo: (freedom) => freedom.optional && !isFact(freedom),
    apply: (_value, present) => (present ? ABSENT : NO_CHANGE),
  },
  {
    name: 'longest',
    description: (field, { schema }) => `'${field}' at the longest length the contract allows (${schema.maxLength === undefined ? `${LONGEST_WITHOUT_MAX} characters: the contract sets no maxLength, so the bound is the mock's own` : `${schema.maxLength} characters`})`,
    appliesTo: isFreeText,
    apply: (value, present, freedom) => {
      const message = keepsMessage(freedom, value, present);
      return unchangedUnless(value, longest(message === undefined ? 'A page title' : `${message} — `, freedom.schema.maxLength ?? LONGEST_WITHOUT_MAX));
    },
  },
  {
    name: 'non-ascii',
    description: (field) => `'${field}' in non-ASCII text: accents, CJK, emoji or right-to-left letters (never control characters)`,
    appliesTo: isFreeText,
    apply: (value, present, freedom, draw) => {
      const sample = NON_ASCII_SAMPLES[draw(NON_ASCII_SAMPLES.length)] ?? 'Café';
      const message = keepsMessage(freedom, value, present);
      const text = message === undefined ? sample : `${message} — ${sample}`;
      return freedom.schema.maxLength === undefined ? text : [...text].slice(0, freedom.schema.maxLength).join('');
    },
  },
  {
    name: 'empty',
    description: (field) => `'${field}' the empty string (the contract sets no minLength)`,
    appliesTo: (freedom) => isFreeText(freedom) && !(freedom.schema.minLength && freedom.schema.minLength > 0),
    apply: (value) => unchangedUnless(value, ''),
  },
  {
    name: 'minimum',
    description: (field, { schema }) => `'${field}' at its minimum, ${schema.minimum}`,
    appliesTo: (freedom) => isFreeInteger(freedom) && freedom.schema.minimum !== undefined,
    apply: (value, _present, { schema }) => unchangedUnless(value, schema.minimum),
  },
  {
    name: 'max-safe',
    description: (field, { schema }) => `'${field}' at ${schema.maximum === undefined ? '2^53-1, the largest integer a JSON client holds exactly (the contract sets no maximum)' : `its maximum, ${schema.maximum}`}`,
    appliesTo: isFreeInteger,
    apply: (value, _present, { schema }) => unchangedUnless(value, Math.min(schema.maximum ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)),
  },
  {
    name: 'offset',
    description: (field) => `'${field}' with a numeric UTC offset instead of Z, the same instant`,
    appliesTo: ({ schema }) => schema.format === 'date-time',
    apply: (value, present, _freedom, draw) => (present && typeof value === 'string' ? unchangedUnless(value, withOffset(value, draw)) : NO_CHANGE),
  },
  {
    name: 'fraction-digits',
    description: (field) => `'${field}' with 0 to 9 fraction digits of the second, the same instant`,
    appliesTo: ({ schema }) => schema.format === 'date-time',
    apply: (value, present, _freedom, draw) => (present && typeof value === 'string' ? unchangedUnless(value, withFractionDigits(value, draw)) : NO_CHANGE),
  },
  {
    name: 'permuted',
    description: (field) => `'${field}' in another order (the contract gives the array none)`,
    appliesTo: ({ schema }) => schema.type === 'array',
    apply: (value, present, _freedom, draw) => (present && Array.isArray(value) && value.length > 1 ? permuted(value, draw) : NO_CHANGE),
  },
];

/** A seeded shuffle that never gives back the same order. */
function permuted(items: readonly unknown[], draw: Draw): unknown[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = draw(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  if (out.every((item, index) => item === items[index])) out.push(out.shift());
  return out;
}
