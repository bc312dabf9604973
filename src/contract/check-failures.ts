// How a check ends other than passed: it throws CheckFailure (with the exchange that shows it) or
// NotChecked (the server under test gives no way to check it). Apart from check-types.ts, which
// re-exports them, so that the check context (context.ts) throws them without a circle.
import type { Exchange } from './client.js';

export class CheckFailure extends Error {
  override name = 'CheckFailure';
  constructor(
    readonly reason: string,
    readonly exchange?: Exchange,
  ) {
    super(reason);
  }
}

export class NotChecked extends Error {
  override name = 'NotChecked';
}

/** Not checked because the contract FILE removes an operation the check calls: not the server's fault, reported as skipped with the reason. */
export class Skipped extends NotChecked {
  override name = 'Skipped';
}
