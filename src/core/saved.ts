// What a write the store could not make durable becomes: a 500 that says so. The store undid it,
// so nothing was made and nothing acknowledged is lost (a full or read-only disk, Redis gone).
import { ApiError, errors } from './errors.js';
import { isStoreUnavailable } from './link-store.js';

/** The write's result, or the refusal a client is told when the store could not make it. */
export function saved<T>(write: Promise<T>): Promise<T> {
  // One reaction on the write's promise, not an async function around it (a promise of its own
  // and an await: a microtask turn on every create, update and delete).
  return write.then(undefined, notSaved);
}

/** A failed write as the client is told of it. */
export function notSaved(error: unknown): never {
  // Unreachable data (Redis gone) says so itself, and is answered as such (D25).
  if (error instanceof ApiError || isStoreUnavailable(error)) throw error;
  throw errors.notSaved((error as Error).message);
}
