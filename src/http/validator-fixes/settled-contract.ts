// express-openapi-validator 5.6.2 waits for its loaded contract on every request. Each of its five
// middlewares (path parameters, metadata, security, request, response) is
// `pContext.then(run).catch(next)`, where `pContext` is the promise of the contract it loads once
// at start. That promise never changes after it settles, yet every request pays, five times, two
// promises, their reactions and a turn of the microtask queue, and the one layer that runs the
// API's steps (src/http/one-layer.ts) adds a third promise for each returned one: about 15
// promises a request, only to learn again that the contract is loaded.
//
// Why this way: the five wrappers close over `pContext`, so nothing outside can reach them; what
// builds them, `OpenApiValidator.prototype.installMiddleware(spec)`, takes the loading promise as
// its argument. We hand it a thenable that behaves as that promise until it settles and, from
// then on, runs each callback at once: the same callbacks in the same order with the same values
// and errors, minus the wait. Rebuilding the five middlewares ourselves would copy ~100 lines of
// the validator's start-up.
import { requireFromValidator, wrapPrototypeMethod, type ModuleLoader } from './internals.js';
import { isThenable, settledSteps } from './settled-steps.js';

type Callback = ((value: unknown) => unknown) | null | undefined;

/**
 * A promise's value that, once settled, hands it to `then`'s callbacks synchronously. Until then
 * it delegates to the promise, so a request that comes before the contract is loaded waits, as
 * before. A callback that returns a thenable is waited for through a promise again.
 */
export class SettledAtOnce {
  private state: 'pending' | 'fulfilled' | 'rejected' = 'pending';
  private value: unknown;

  private constructor(private readonly promise: Promise<unknown> | undefined) {
    // Handled here, so that a rejection is settled state, never an unhandled rejection of ours.
    promise?.then(
      (value) => this.settle('fulfilled', value),
      (reason) => this.settle('rejected', reason),
    );
  }

  static of(promise: PromiseLike<unknown>): SettledAtOnce {
    return new SettledAtOnce(Promise.resolve(promise));
  }

  static settled(state: 'fulfilled' | 'rejected', value: unknown): SettledAtOnce {
    return state === 'fulfilled' && value === undefined ? SettledAtOnce.fulfilledEmpty : SettledAtOnce.made(state, value);
  }

  /** Most callbacks (a middleware's return) give undefined: one shared answer, no object per call. */
  private static readonly fulfilledEmpty = SettledAtOnce.made('fulfilled', undefined);

  private static made(state: 'fulfilled' | 'rejected', value: unknown): SettledAtOnce {
    const settled = new SettledAtOnce(undefined);
    settled.settle(state, value);
    return settled;
  }

  then(onFulfilled?: Callback, onRejected?: Callback): SettledAtOnce {
    if (this.state === 'pending') return new SettledAtOnce((this.promise as Promise<unknown>).then(onFulfilled, onRejected));
    const callback = this.state === 'fulfilled' ? onFulfilled : onRejected;
    if (typeof callback !== 'function') return this;
    let result: unknown;
    try {
      result = callback(this.value);
    } catch (error) {
      return SettledAtOnce.settled('rejected', error);
    }
    return isThenable(result) ? SettledAtOnce.of(result) : SettledAtOnce.settled('fulfilled', result);
  }

  catch(onRejected?: Callback): SettledAtOnce {
    return this.then(undefined, onRejected);
  }

  /**
   * What a middleware hands its router: nothing once fulfilled (as a middleware that returns
   * nothing), else a native promise. Express's router warns of, and waits on, any other thenable.
   */
  returned(): Promise<unknown> | undefined {
    if (this.state === 'fulfilled') return undefined;
    if (this.state === 'rejected') return Promise.reject(this.value);
    return new Promise((resolve, reject) => this.then(resolve, reject));
  }

  private settle(state: 'fulfilled' | 'rejected', value: unknown): void {
    this.state = state;
    this.value = value;
  }
}

type Middleware = (...args: unknown[]) => unknown;

/**
 * The validator's middleware, answering its router with nothing or a native promise
 * (SettledAtOnce.returned). Its three arguments (req, res, next; an error handler's four) are
 * passed as they are: a rest parameter and `apply` made an array per call, five a request.
 */
function returningNative(middleware: unknown): unknown {
  if (typeof middleware !== 'function') return middleware;
  const run = middleware as Middleware;
  const answer = (result: unknown): unknown => (result instanceof SettledAtOnce ? result.returned() : result);
  return Object.defineProperty(
    run.length === 4
      ? function (this: unknown, a: unknown, b: unknown, c: unknown, d: unknown) {
          return answer(run.call(this, a, b, c, d));
        }
      : function (this: unknown, a: unknown, b: unknown, c: unknown) {
          return answer(run.call(this, a, b, c));
        },
    'length',
    { value: run.length },
  );
}

/** Marks our method, so that a second install (a second copy of this package in one process) does nothing. */
const INSTALLED = Symbol.for('shortlink-mock.validatorSettledContract');

/**
 * Hands the validator's `installMiddleware` a SettledAtOnce of its loading promise
 * (wrapPrototypeMethod says what true and false mean).
 */
export function installSettledContract(load: ModuleLoader = requireFromValidator): boolean {
  return wrapPrototypeMethod(load, './openapi.validator', 'OpenApiValidator', 'installMiddleware', INSTALLED, (install) =>
    function installMiddleware(this: unknown, spec: unknown) {
      const loading = isThenable(spec) ? SettledAtOnce.of(spec) : undefined;
      const middlewares = (install as (this: unknown, spec: unknown) => unknown).call(this, loading ?? spec);
      if (!Array.isArray(middlewares)) return middlewares;
      const answering = middlewares.map(returningNative);
      // Once loaded, each goes straight to the middleware it reaches (settled-steps.ts).
      if (loading === undefined || typeof this !== 'object' || this === null) return answering;
      const names = middlewares.map((middleware: unknown) => (typeof middleware === 'function' ? middleware.name : ''));
      return settledSteps(this, answering, names);
    },
  );
}
