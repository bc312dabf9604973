// Random identifiers and slugs. The source of randomness is injected so that seeded fixtures and
// tests are deterministic; the server uses the crypto one.
import { randomInt } from 'node:crypto';

/** Returns an integer in [0, max). */
export type RandomInt = (max: number) => number;

export const cryptoRandomInt: RandomInt = (max) => randomInt(max);

export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomString(random: RandomInt, length: number, alphabet = ALPHANUMERIC): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[random(alphabet.length)];
  return out;
}

export type IdKind = 'lnk' | 'tag' | 'dom' | 'acc';

/** Ids look like `lnk_V2xq9TbL3mKz8RcA`: a kind prefix and 16 alphanumerics. */
export function newId(random: RandomInt, kind: IdKind): string {
  return `${kind}_${randomString(random, 16)}`;
}
