// --accept-any-key: an unknown key's account is made here, the step before the operation's
// handler, once nothing before it refused the request (validation, a mock control, a scenario's
// forced answer or fault): a refused request changes nothing (D19, SPEC's bad input), and a
// request that is served has its account, seeded links included (a delete of one of them works on
// first use). A request of a key that has an account passes at once.
import type { RequestHandler } from 'express';
import type { UnmadeAccount } from '../core/any-key-accounts.js';
import type { LinkService } from '../core/links.js';
import { UNMADE_ACCOUNT } from './authenticate.js';

/** `storeless`: operations answered without the store (a contract FILE's generated answers), which make no account. */
export function accountToServe(service: LinkService, storeless: ReadonlySet<string>): RequestHandler {
  return (_req, res, next) => {
    const unmade = res.locals[UNMADE_ACCOUNT] as UnmadeAccount | undefined;
    if (unmade === undefined || storeless.has(res.locals['operationId'] as string)) return next();
    return Promise.resolve(service.accountToServe(unmade)).then((account) => {
      res.locals[UNMADE_ACCOUNT] = undefined;
      res.locals['account'] = account;
      next();
    });
  };
}
