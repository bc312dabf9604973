// Step one for every API request, before the body is even parsed: is this an operation of the
// contract, and does the x-api-key name an account (or may it get one, --accept-any-key)? A
// request that is both unauthenticated and invalid gets the 401 (D14); paths and methods the
// contract lacks get their 404/405. An unknown key's account is not made here but where a request
// is served (account-to-serve.ts): a request refused on the way changes nothing.
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { NoOperation } from '../contract/no-operation.js';
import { UnmadeAccount } from '../core/any-key-accounts.js';
import { ApiError, errors } from '../core/errors.js';
import type { LinkService } from '../core/links.js';
import type { AccountRecord } from '../core/model.js';
import type { OperationTable } from './operation-table.js';

export const API_KEY_HEADER = 'x-api-key';
/** res.locals key: which answer that is no operation this is (variety varies it, src/contract/no-operation.ts). */
export const NO_OPERATION = 'noOperation';

/** `alongside` starts other reads of the request while the key is looked up. */
export function authenticate(table: OperationTable, service: LinkService, alongside?: (req: Request, res: Response) => void): RequestHandler {
  return (req, res, next) => {
    const match = table.match(req.method, req.path);
    if (match.kind === 'unknown-path') {
      res.locals[NO_OPERATION] = 'unknownPath' satisfies NoOperation;
      throw errors.pathNotFound(req.method, req.path, table.operations);
    }
    if (match.kind === 'method-not-allowed') {
      res.locals[NO_OPERATION] = 'wrongMethod' satisfies NoOperation;
      res.setHeader('Allow', match.allowed.join(', '));
      throw errors.methodNotAllowed(req.method, req.path, match.allowed);
    }
    res.locals['operationId'] = match.operationId;
    res.locals['takesBody'] = match.takesBody;
    alongside?.(req, res);
    // On a store that has the account at once, the next step runs now, not a microtask later.
    // The header as Node gives it (req.get lower-cases the name again and checks it for Referer).
    const account = service.admit(req.headers[API_KEY_HEADER] as string | undefined);
    if (account instanceof Promise) {
      return account.then((found) => {
        admitted(res, found);
        next();
      });
    }
    admitted(res, account);
    next();
  };
}

/** res.locals key: an admitted key's account still to be made (account-to-serve.ts). */
export const UNMADE_ACCOUNT = 'unmadeAccount';

function admitted(res: Response, found: AccountRecord | UnmadeAccount): void {
  if (found instanceof UnmadeAccount) res.locals[UNMADE_ACCOUNT] = found;
  else res.locals['account'] = found;
}

/**
 * After a 401 of authentication, the body is read all the same (with `readBody`, the API's own
 * parser and bounds), for the journal only: a client team looking at a refused call wants to see
 * what it sent. The answer is the 401 whatever the body is (D14); a body that cannot be read (not
 * JSON, too large) leaves the entry without one, as for any unreadable body.
 */
export function readBodyOfAuthRefusal(readBody: RequestHandler): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (!(error instanceof ApiError) || error.status !== 401) return next(error);
    readBody(req, res, () => next(error));
  };
}
