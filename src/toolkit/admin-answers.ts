// What each admin route can legitimately answer: its size in bytes and its shape, checked by the
// admin client before any caller uses the answer. The client may be pointed at any server
// (connectMock, robustness --base-url, pact export --base-url, coverage, drift), and a byte cap
// alone does not bound memory: JSON.parse makes about 18 bytes of heap of every byte of `{},{},…`
// (250 MiB of it under the old 256 MiB cap ended robustness at 6.7 GB), so each route is read only
// up to what the mock's own bounds let it hold (docs/options.md, Limits).
import { DEFAULT_JOURNAL_SIZE } from '../core/journal.js';
import { MAX_DISTINCT_VIOLATIONS } from '../core/violations.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** One object (health, a setting, an account, a link, a snapshot) or an Error object: a few KiB in a real mock. */
export const ADMIN_OBJECT_BYTES = 1 * MiB;

/**
 * A list the mock bounds by count: a links page (1,000 links), the accounts, the coverage of at most
 * 1,000 keys, the variety settings: about 1 MiB at their real largest.
 */
export const ADMIN_LIST_BYTES = 8 * MiB;

/**
 * One journal entry, or one distinct violation of the drift report with its example: two bodies
 * of at most 4,096 characters each (the journal's cap; up to 12 KiB as UTF-8), the path, the
 * violations; a real entry is 0.5-2 KiB.
 */
export const ADMIN_ENTRY_BYTES = 16 * KiB;

/** No admin answer is read past this: the journal and the drift report reach it at most (2,048 full entries; ~600 MB of heap if all of it were `{}`). */
export const MAX_ADMIN_ANSWER_BYTES = 32 * MiB;

export type Query = Record<string, string | number | undefined>;

export interface AnswerRule {
  /** The most bytes read of the route's answer. */
  maxBytes: number;
  /** What the route answers, for the message when it answered something else ('a journal page'). */
  what: string;
  /** Whether a parsed body has the route's shape (the fields its callers use, with their types). */
  fits: (body: unknown) => boolean;
}

type Shape = Omit<AnswerRule, 'maxBytes'> & { bytes: (query: Query) => number };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const arrayOf = (value: unknown, each: (item: unknown) => boolean): boolean => Array.isArray(value) && value.every(each);
const optional = (value: unknown, check: (value: unknown) => boolean): boolean => value === undefined || check(value);
const isString = (value: unknown): boolean => typeof value === 'string';
const isNumber = (value: unknown): boolean => typeof value === 'number';
const nullOr = (check: (value: unknown) => boolean) => (value: unknown) => value === null || check(value);

/** The fields of an entry that the commands read (robustness, pact export); the rest are data. */
function isJournalEntry(entry: unknown): boolean {
  if (!isObject(entry)) return false;
  const variety = entry['variety'];
  const varietyFits = variety === undefined || variety === null || (isObject(variety) && isNumber(variety['seed']) && arrayOf(variety['dimensions'], isString));
  const fields = isNumber(entry['seq']) && isString(entry['method']) && isString(entry['path']) && optional(entry['operationId'], nullOr(isString));
  return fields && optional(entry['status'], nullOr(isNumber)) && optional(entry['verdict'], isString) && optional(entry['violations'], Array.isArray) && varietyFits;
}

/** The entries a journal answer can hold: the `limit` asked, else the journal's default size. */
function journalBytes(query: Query): number {
  const limit = Number(query['limit']);
  const entries = Number.isSafeInteger(limit) && limit > 0 ? limit : DEFAULT_JOURNAL_SIZE;
  return Math.min(entries * ADMIN_ENTRY_BYTES, MAX_ADMIN_ANSWER_BYTES);
}

const object = (what: string, fits: (body: Record<string, unknown>) => boolean = () => true): Shape => ({ what, bytes: () => ADMIN_OBJECT_BYTES, fits: (body) => isObject(body) && fits(body) });
const list = (what: string, fits: (body: Record<string, unknown>) => boolean): Shape => ({ what, bytes: () => ADMIN_LIST_BYTES, fits: (body) => isObject(body) && fits(body) });

/** By method and path (the path without /__admin, ids as `*`); the first match wins. */
const ROUTES: Array<[method: string, path: RegExp, shape: Shape]> = [
  ['GET', /^\/health$/, object('a health report', (body) => isString(body['version']))],
  ['GET', /^\/variety\/dimensions$/, object('a list of variety dimensions', (body) => arrayOf(body['dimensions'], (item) => isObject(item) && isString(item['name']) && isString(item['description'])))],
  ['GET', /^\/variety$/, list('the variety settings', () => true)],
  ['GET', /^\/requests$/, { what: 'a journal page', bytes: journalBytes, fits: (body) => isObject(body) && optional(body['size'], isNumber) && arrayOf(body['entries'], isJournalEntry) }],
  ['GET', /^\/accounts$/, list('a list of accounts', (body) => arrayOf(body['accounts'], isObject))],
  ['GET', /^\/coverage$/, list('a coverage report', (body) => Array.isArray(body['documented']) && Array.isArray(body['accounts']))],
  ['GET', /^\/links$/, list('a page of links', (body) => arrayOf(body['links'], isObject) && optional(body['nextCursor'], isString))],
  [
    'GET',
    /^\/violations$/,
    { what: 'a drift report', bytes: () => Math.min(2 * MAX_DISTINCT_VIOLATIONS * ADMIN_ENTRY_BYTES, MAX_ADMIN_ANSWER_BYTES), fits: (body) => isObject(body) && isNumber(body['distinct']) && isNumber(body['dropped']) && Array.isArray(body['groups']) },
  ],
];

/** Every other route answers one object (a setting, an account, a link, a snapshot, a reset). */
const ANY_OBJECT = object('an admin answer');

/** What the route `method path` (path without /__admin) can answer to `query`. */
export function answerRule(method: string, path: string, query: Query = {}): AnswerRule {
  const shape = ROUTES.find(([routeMethod, pattern]) => routeMethod === method && pattern.test(path))?.[2] ?? ANY_OBJECT;
  return { what: shape.what, fits: shape.fits, maxBytes: shape.bytes(query) };
}
