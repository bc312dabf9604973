// The judge of a varied answer that no validator hook sees (one answered before the validator's
// response middleware, such as a 401): the contract suite's own checker, compiled from
// openapi.yaml on first use, so that a mock without variety never pays for it.
import { ResponseChecker } from '../contract/response-checker.js';
import type { ContractJudge } from './variety.js';

export function contractJudge(document: unknown): () => ContractJudge {
  let checker: ResponseChecker | undefined;
  return () => (checker ??= new ResponseChecker(document as ConstructorParameters<typeof ResponseChecker>[0]));
}
