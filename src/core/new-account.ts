// POST /__admin/accounts: a fresh account made on purpose, so that each test suite sharing one mock
// has data of its own. It starts with no links, so "limit N, create N, the next one fails" holds as
// a test writes it; `seedLinks` asks for the first N links an unknown key gets under
// --accept-any-key (made from the key), within its limit. Name and limit are the caller's. No HTTP here.
import { randomBytes } from 'node:crypto';
import type { SeededAccount } from './link-store.js';
import { errors } from './errors.js';
import type { LinkService } from './links.js';
import { saved } from './saved.js';
import type { AccountRecord } from './model.js';

export interface NewAccountRequest {
  apiKey?: string;
  name?: string;
  linkLimit?: number;
  /** Links seeded from the key (the admin contract bounds it to 1000); none when absent. */
  seedLinks?: number;
}

/** The account an API key would be seeded with, with `links` seeded links (src/process/account-for-key.ts). */
export type SeedAccount = (apiKey: string, links: number) => Promise<SeededAccount>;

/** A key nobody can guess or have used: 64 random bits. */
export const randomApiKey = (): string => `key-${randomBytes(8).toString('hex')}`;

/** The new account; a key that already names one is a 409, checked again when it is stored. */
export async function newAccount(service: LinkService, seed: SeedAccount, request: NewAccountRequest): Promise<AccountRecord> {
  const apiKey = request.apiKey ?? randomApiKey();
  if (await service.store.accountByKey(apiKey)) throw errors.apiKeyTaken(apiKey);
  const seedLinks = request.seedLinks ?? 0;
  // Checked first when the limit is given: no links are made for a request that is refused.
  if (request.linkLimit !== undefined) checkSeedLinks(seedLinks, request.linkLimit);
  const seeded = await seed(apiKey, seedLinks);
  if (request.name !== undefined) seeded.account.name = request.name;
  if (request.linkLimit !== undefined) seeded.account.linkLimit = request.linkLimit;
  checkSeedLinks(seedLinks, seeded.account.linkLimit);
  // Another request may have taken the key since it was looked up: the store decides.
  if ((await saved(service.store.createAccount(seeded))) === 'key-taken') throw errors.apiKeyTaken(apiKey);
  return seeded.account;
}

/** An account is never born over its limit (issue 25): more seeded links than the limit is a 400. */
function checkSeedLinks(seedLinks: number, linkLimit: number): void {
  if (seedLinks > linkLimit) throw errors.invalidRequest(`seedLinks (${seedLinks}) is more than linkLimit (${linkLimit}): an account cannot start over its link limit`);
}
