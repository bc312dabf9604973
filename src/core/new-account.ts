// POST /__admin/accounts: a fresh account made on purpose, so that each test suite sharing one mock
// has data of its own. It is seeded exactly like an unknown key under --accept-any-key (tags and
// links made from the key), with the name and limit the caller asked for. No HTTP here.
import { randomBytes } from 'node:crypto';
import type { SeededAccount } from '../store/link-store.js';
import { errors } from './errors.js';
import { saved, type LinkService } from './links.js';
import type { AccountRecord } from './model.js';

export interface NewAccountRequest {
  apiKey?: string;
  name?: string;
  linkLimit?: number;
}

/** The account an API key would be seeded with (src/account-for-key.ts). */
export type SeedAccount = (apiKey: string) => Promise<SeededAccount>;

/** A key nobody can guess or have used: 64 random bits. */
export const randomApiKey = (): string => `key-${randomBytes(8).toString('hex')}`;

/** The new account; a key that already names one is a 409, checked again when it is stored. */
export async function newAccount(service: LinkService, seed: SeedAccount, request: NewAccountRequest): Promise<AccountRecord> {
  const apiKey = request.apiKey ?? randomApiKey();
  if (await service.store.accountByKey(apiKey)) throw errors.apiKeyTaken(apiKey);
  const seeded = await seed(apiKey);
  if (request.name !== undefined) seeded.account.name = request.name;
  if (request.linkLimit !== undefined) seeded.account.linkLimit = request.linkLimit;
  // Another request may have taken the key since it was looked up: the store decides.
  if ((await saved(service.store.createAccount(seeded))) === 'key-taken') throw errors.apiKeyTaken(apiKey);
  return seeded.account;
}
