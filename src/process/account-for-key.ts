// --accept-any-key: the account seeded for an unknown key (fixtures/seed.ts builds it from the
// key, so the same key always gets the same data), with its default-domain slugs kept clear of
// the slugs already taken there. The store is asked which are taken; the account is built again
// around them, a bounded number of times.
import type { DomainRecord } from '../core/model.js';
import type { LinkStore, SeededAccount } from '../core/link-store.js';

/** Which of these slugs of the domain a link or a claim holds. */
export interface SlugCheck {
  slugsTaken(domainId: string, slugs: readonly string[]): Promise<Set<string>>;
}

/** `links`: how many links to seed; the builder's own count (--accept-any-key's) when absent. */
export type BuildAccount = (apiKey: string, defaultDomain: DomainRecord, isSlugTaken: (slug: string) => boolean, links?: number) => SeededAccount;

const ATTEMPTS = 5;

/** --accept-any-key's factory (AccountFactory), which POST /__admin/accounts calls with its `seedLinks`. */
export function accountForKey(store: LinkStore & SlugCheck, build: BuildAccount): (apiKey: string, links?: number) => Promise<SeededAccount> {
  return async (apiKey, links) => {
    const domain = await store.defaultDomain();
    const avoid = new Set<string>();
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const seeded = build(apiKey, domain, (slug) => avoid.has(slug), links);
      const taken = await store.slugsTaken(domain.id, seeded.links.filter((link) => link.domainId === domain.id).map((link) => link.slug));
      if (taken.size === 0) return seeded;
      for (const slug of taken) avoid.add(slug);
    }
    throw new Error(`the slugs seeded for this key are still taken after ${ATTEMPTS} attempts; use another key`);
  };
}
