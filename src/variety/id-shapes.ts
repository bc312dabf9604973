// A created link's id in another shape the contract allows (Link.id: a string of 1 to 64
// characters, no pattern): the longest, or a UUID. Random like the usual ones, so never taken.
import { randomUUID } from 'node:crypto';
import { cryptoRandomInt, randomString } from '../core/random.js';
import type { IdShape } from './dimensions.js';

/** `maxLength`: the id schema's (dimensions.ts reads it); the longest shape is exactly that long. */
export function newIdOfShape(shape: IdShape, maxLength: number): string {
  return shape === 'uuid' ? randomUUID() : `lnk_${randomString(cryptoRandomInt, maxLength - 4)}`;
}
