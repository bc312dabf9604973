// The route table by operationId: thin handlers that read the validated request, call the core
// and send. The OpenAPI validator has already checked the body against openapi.yaml, and the
// authenticate middleware has put the account on res.locals.
import type { Request, RequestHandler, Response } from 'express';
import type { CreateLinkRequest, UpdateLinkRequest } from '../core/api-types.js';
import type { LinkService } from '../core/links.js';
import type { AccountRecord } from '../core/model.js';
import { newLinkIdFor } from './variety.js';

export type OperationId = 'createLink' | 'updateLink' | 'deleteLink';
export type OperationHandler = (req: Request, res: Response) => Promise<void> | void;
export type OperationHandlers = Record<OperationId, OperationHandler>;

export const accountOf = (res: Response): AccountRecord => res.locals['account'] as AccountRecord;
const linkId = (req: Request): string => String((req as OpenApiRequest).openapi?.pathParams?.['id']);

export function linkHandlers(service: LinkService): OperationHandlers {
  return {
    // A reaction on the core's promise, not an async function awaiting it: one promise and one
    // microtask turn fewer on the most frequent request (bench/create-cost.md).
    createLink: (req, res) =>
      service.create(accountOf(res), req.body as CreateLinkRequest, newLinkIdFor(res)).then((link) => {
        res.status(201).json(link);
      }),
    updateLink: async (req, res) => {
      const link = await service.update(accountOf(res), linkId(req), req.body as UpdateLinkRequest);
      res.status(200).json(link);
    },
    deleteLink: async (req, res) => {
      await service.delete(accountOf(res), linkId(req));
      res.status(204).end();
    },
  };
}

interface OpenApiRequest extends Request {
  openapi?: { schema?: { operationId?: string }; pathParams?: Record<string, string> };
}

/**
 * Dispatches a validated request to the handler of its operationId. The handler's promise is
 * returned, not awaited: the layer that runs the steps passes its rejection on (one-layer.ts).
 */
export function dispatchByOperationId(handlers: Readonly<Record<string, OperationHandler | undefined>>): RequestHandler {
  return (req, res, next) => {
    const operationId = (req as OpenApiRequest).openapi?.schema?.operationId;
    const handler = operationId && handlers[operationId];
    if (!handler) return next(new Error(`no handler for operation ${String(operationId)}`));
    return handler(req, res);
  };
}
