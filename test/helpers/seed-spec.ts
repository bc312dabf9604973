// The fixtures the seed's own tests draw (test/core/seed-*.test.ts): 3,000 links on two domains, so
// that a slug of one or two of lorem's ~180 words is drawn twice (its check says taken and the draw
// is retried), an account of no links, and one of a few links without tags.
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';

export const REPEATED_SLUGS_SPEC: FixtureSpec = {
  defaultDomain: 'short.test',
  accounts: [
    { apiKey: 'big-key', name: 'Big', linkLimit: 5000, customDomains: ['go.big.test'], tags: 6, links: 3000 },
    { apiKey: 'empty-key', name: 'Empty', linkLimit: 10, customDomains: [], tags: 2, links: 0 },
    { apiKey: 'small-key', name: 'Small', linkLimit: 50, customDomains: [], tags: 0, links: 40 },
  ],
};

/** The seed those tests draw it with. */
export const SPEC_SEED = 4242;
