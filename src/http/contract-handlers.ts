// The handlers of the operations a contract FILE adds (--contract; D32), by operationId, built once
// per app: a read of one link and a list of the account's links answered from the store, with the
// same authentication (the authenticate step before), isolation (another account's link is a 404,
// D15) and Error objects as the rule-served operations; any other new operation answered from its
// schema (src/contract/generated-answers.ts), saying so in `x-mock-generated`. None with the shipped
// contract: the default dispatch table is the one of today.
import type { Request, Response } from 'express';
import type { ContractClasses, ServedOperation } from '../core/contract-classes.js';
import type { OpenApiDocument } from '../core/contract-types.js';
import type { LinkService } from '../core/links.js';
import { ApiError } from '../core/errors.js';
import { CURSOR_REFUSED, linkPage, readCursor } from '../core/link-page.js';
import { schemaAt } from '../core/schema-pointer.js';
import { listQueryOf, methodAt, NEXT_CURSOR_NAME, refusalStatusOf } from '../core/list-query.js';
import type { GeneratedAnswer } from '../contract/generated-answers.js';
import { accountOf, type OperationHandler } from './operations.js';

/** Says that an answer was made from the contract's schema, not by a rule or from the store. */
export const GENERATED_HEADER = 'x-mock-generated';
/**
 * res.locals key of the same, for the journal (record-requests.ts): the operationId (a string) of
 * an answer made from its schema, or the names of the generated Link fields (an array) of a Link
 * answer. One key for both: a request that has neither pays one property read.
 */
export const GENERATED_LOCAL = 'generated';

/** The operations whose success answer holds Links: those served by rule that answer one, and the reads from the store. */
const LINK_ANSWERS = new Set(['createLink', 'updateLink']);

/**
 * With a FILE that adds Link fields made from their schemas: the handlers of the operations that
 * answer Links say which (`x-mock-generated: Link.expiresAt, …`, and the journal's
 * `generatedFields`). Set before the handler runs, and taken back by the error handler when it
 * answers an error instead (src/http/errors.ts). The same handlers when FILE adds none.
 */
export function sayingGeneratedFields(handlers: Readonly<Record<string, OperationHandler>>, classes: ContractClasses): Record<string, OperationHandler> {
  const names = classes.fields.filter((field) => field.of === 'Link' && field.served === 'generated').map((field) => `Link.${field.name}`);
  if (names.length === 0) return { ...handlers };
  const header = names.join(', ');
  const linkAnswers = new Set([...LINK_ANSWERS, ...classes.operations.filter((operation) => operation.served === 'store').map((operation) => operation.operationId)]);
  const said: Record<string, OperationHandler> = { ...handlers };
  for (const [operationId, handler] of Object.entries(handlers)) {
    if (!linkAnswers.has(operationId)) continue;
    said[operationId] = (req, res) => {
      res.setHeader(GENERATED_HEADER, header);
      res.locals[GENERATED_LOCAL] = names;
      return handler(req, res);
    };
  }
  return said;
}

/** An error answer is no Link: the names a Link answer would have carried are taken back. */
export function notGenerated(res: Response): void {
  if (!Array.isArray(res.locals[GENERATED_LOCAL])) return;
  res.removeHeader(GENERATED_HEADER);
  delete res.locals[GENERATED_LOCAL];
}

export function contractHandlers(document: OpenApiDocument, classes: ContractClasses, service: LinkService, answers: ReadonlyMap<string, GeneratedAnswer>): Record<string, OperationHandler> {
  const handlers: Record<string, OperationHandler> = {};
  for (const operation of classes.operations) {
    if (operation.served === 'store' && operation.read === 'one') handlers[operation.operationId] = readOne(service);
    if (operation.served === 'store' && operation.read === 'list') handlers[operation.operationId] = listLinks(service, operation, queryNames(document, operation), refusalStatusOf(document, operation));
    const answer = answers.get(operation.operationId);
    if (operation.served === 'generated' && answer) handlers[operation.operationId] = generated(operation.operationId, answer);
  }
  return handlers;
}

/** The operations a contract FILE adds that are answered from their schema, not from the store. */
export function generatedOperations(classes: ContractClasses): ReadonlySet<string> {
  return new Set(classes.operations.filter((operation) => operation.served === 'generated').map((operation) => operation.operationId));
}

interface OpenApiRequest extends Request {
  openapi?: { pathParams?: Record<string, string> };
}

function readOne(service: LinkService): OperationHandler {
  return async (req, res) => {
    // The one path parameter of `/links/{…}`, whatever FILE names it.
    const id = String(Object.values((req as OpenApiRequest).openapi?.pathParams ?? {})[0]);
    res.status(200).json(await service.read(accountOf(res), id));
  };
}

interface PageQuery {
  /** The integer query parameter that bounds a page (limit, pageSize, …). */
  limit?: string;
  /** The query parameter naming where a page starts (cursor, after, pageToken, …). */
  cursor?: string;
  /** The answer's member for the next page's cursor, when FILE's answer has one. */
  nextCursor?: string;
}

function listLinks(service: LinkService, operation: ServedOperation, names: PageQuery, refusal: 400 | 422 | undefined): OperationHandler {
  return async (req, res) => {
    const limit = names.limit === undefined ? undefined : req.query[names.limit];
    let cursor = names.cursor === undefined ? undefined : req.query[names.cursor];
    const account = accountOf(res);
    if (typeof cursor === 'string' && !readCursor(cursor, account.id)) {
      if (refusal !== undefined) throw new ApiError(refusal, CURSOR_REFUSED);
      cursor = undefined;
    }
    const page = await linkPage(service, account.id, {
      ...(typeof limit === 'string' || typeof limit === 'number' ? { limit: Number(limit) } : {}),
      ...(typeof cursor === 'string' ? { cursor } : {}),
    });
    if (operation.itemsField === undefined) return void res.status(200).json(page.links);
    const next = names.nextCursor && page.nextCursor ? { [names.nextCursor]: page.nextCursor } : {};
    res.status(200).json({ [operation.itemsField]: page.links, ...next });
  };
}

function generated(operationId: string, answer: GeneratedAnswer): OperationHandler {
  return (_req, res) => {
    res.setHeader(GENERATED_HEADER, operationId);
    res.locals[GENERATED_LOCAL] = operationId;
    if (answer.body === undefined) return void res.status(answer.status).end();
    res.status(answer.status).json(structuredClone(answer.body));
  };
}

/** Which of FILE's query parameters bound and start a page, and which member carries the next cursor. */
function queryNames(document: OpenApiDocument, operation: ServedOperation): PageQuery {
  const { limit, cursor } = listQueryOf(document, operation);
  const { at, method } = methodAt(document, operation);
  const answer = answerProperties(document, method, at);
  const nextCursor = Object.keys(answer).find((name) => name !== operation.itemsField && NEXT_CURSOR_NAME.test(name));
  return { ...(limit ? { limit: limit.name } : {}), ...(cursor ? { cursor } : {}), ...(nextCursor ? { nextCursor } : {}) };
}

function answerProperties(document: OpenApiDocument, method: Record<string, unknown>, at: string): Record<string, unknown> {
  const responses = (method['responses'] ?? {}) as Record<string, unknown>;
  const status = Object.keys(responses).find((code) => /^2\d\d$/.test(code));
  const response = status === undefined ? undefined : schemaAt(document, responses[status], at);
  const schema = (response?.schema['content'] as Record<string, { schema?: unknown }> | undefined)?.['application/json']?.schema;
  return (schemaAt(document, schema, at)?.schema['properties'] as Record<string, unknown> | undefined) ?? {};
}
