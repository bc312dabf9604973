// --accept-any-key: the account seeded for an unknown key (fixtures/seed.ts builds it from the
// key, so the same key always gets the same data), with its default-domain slugs kept clear of
// the slugs already taken there. The store is asked which are taken; the account is built again
// around them, a bounded number of times.
import type { DomainRecord } from './core/model.js';
import type { AccountFactory } from './core/links.js';
import type { LinkStore, SeededAccount } from './store/link-store.js';

/** Which of these slugs of the domain a link or a claim holds. */
export interface SlugCheck {
  slugsTaken(domainId: string, slugs: readonly string[]): Promise<Set<string>>;
}

export type BuildAccount = (apiKey: string, defaultDomain: DomainRecord, isSlugTaken: (slug: string) => boolean) => SeededAccount;

const ATTEMPTS = 5;

export function accountForKey(store: LinkStore & SlugCheck, build: BuildAccount): AccountFactory {
  return async (apiKey) => {
    const domain = await store.defaultDomain();
    const avoid = new Set<string>();
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const seeded = build(apiKey, domain, (slug) => avoid.has(slug));
      const taken = await store.slugsTaken(domain.id, seeded.links.filter((link) => link.domainId === domain.id).map((link) => link.slug));
      if (taken.size === 0) return seeded;
      for (const slug of taken) avoid.add(slug);
    }
    throw new Error(`the slugs seeded for this key are still taken after ${ATTEMPTS} attempts; use another key`);
  };
}
