// The persisted data: what the lowdb JSON file holds. Plain, readable JSON; records point to each
// other by id so that a user can open the file and follow it.

export const DATA_FORMAT_VERSION = 1;

export interface DomainRecord {
  id: string;
  name: string;
}

export interface AccountRecord {
  id: string;
  name: string;
  apiKey: string;
  linkLimit: number;
  /** Custom domains, usable by this account only (D8). */
  domains: DomainRecord[];
}

export interface TagRecord {
  id: string;
  accountId: string;
  name: string;
}

export interface LinkRecord {
  id: string;
  accountId: string;
  domainId: string;
  slug: string;
  destinationUrl: string;
  title?: string;
  createdAt: string;
  clickCount: number;
  tagIds: string[];
}

export interface MockData {
  formatVersion: number;
  seed: number;
  /** The service's default domain, usable by every account (D8). */
  defaultDomain: DomainRecord;
  accounts: AccountRecord[];
  /** Keyed by id: O(1) lookup and delete, insertion order kept. */
  tags: Record<string, TagRecord>;
  links: Record<string, LinkRecord>;
}
