// A created link's id in another shape the contract allows (Link.id: a string of 1 to 64
// characters, no pattern): the longest, or a UUID. Random like the usual ones, so never taken.
import { randomUUID } from 'node:crypto';
import { cryptoRandomInt, randomString } from '../core/random.js';
import type { IdShape } from './dimensions.js';

/** Link.id's maxLength in openapi.yaml (test/variety checks the dimension's description names it). */
export const LONGEST_ID = 64;

export function newIdOfShape(shape: IdShape): string {
  return shape === 'uuid' ? randomUUID() : `lnk_${randomString(cryptoRandomInt, LONGEST_ID - 4)}`;
}
