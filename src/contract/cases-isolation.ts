// Isolation between two accounts (--other-api-key): one account cannot create on the other's custom
// domain or with the other's tag ids, nor update or delete the other's links; each is a 404, exactly
// as if the thing did not exist (no existence leak), and the refused request leaves nothing behind
// that the public API can show.
import type { Check } from './check-types.js';

/** A fixed name, so that repeated runs reuse one tag per account (tags cannot be deleted). */
export const TAG_ISOLATION = 'contract-suite-isolation';

export const ISOLATION_CHECKS: readonly Check[] = [
  {
    id: 'rule-isolation-create-domain',
    operationId: 'createLink',
    expectedStatus: 404,
    rule: true,
    title: "isolation: a create on another account's custom domain is a 404 Error (as if the domain did not exist), and nothing is created there",
    async run(ctx) {
      const otherKey = ctx.requireOtherAccount();
      const domain =
        ctx.target.otherAccountDomain ?? ctx.notChecked("no custom domain of the second account: pass --other-account-domain (CONTRACT_OTHER_ACCOUNT_DOMAIN); the API cannot list an account's domains");
      await ctx.call('createLink', { json: ctx.linkBody('iso-dom', { domain }), expect: 404, what: `the second account's custom domain '${domain}' (isolation)` });
      return (await ctx.expectSlugFree('iso-dom', { domain }, 'this account', otherKey)).note;
    },
  },
  {
    id: 'rule-isolation-create-tag',
    operationId: 'createLink',
    expectedStatus: 404,
    rule: true,
    title: "isolation: a create with another account's tag id is a 404 Error (as if the tag did not exist), nothing is created, and the same tag name gives this account a tag of its own",
    async run(ctx) {
      const otherKey = ctx.requireOtherAccount();
      // The second account's tag id is learnt from a link it creates: on its own domain if given, else on the shared one.
      const theirs = await ctx.createLink('iso-tag-own', { tags: [{ name: TAG_ISOLATION }], domain: ctx.target.otherAccountDomain ?? ctx.target.domain }, otherKey);
      const tagId = theirs.tags[0]?.id ?? ctx.fail(`the second account's Link has no tag id for '${TAG_ISOLATION}'`, theirs.exchange);
      const tags = [{ id: tagId, name: TAG_ISOLATION }];
      await ctx.call('createLink', { json: ctx.linkBody('iso-tag', { tags }), expect: 404, what: `the second account's tag id '${tagId}' (isolation)` });
      const { link, note, exchange } = await ctx.expectSlugFree('iso-tag', { tags: [{ name: TAG_ISOLATION }] }, 'this account');
      if (link.tags[0]?.id === tagId) ctx.fail(`this account's tag '${TAG_ISOLATION}' has the second account's tag id '${tagId}': tags must belong to one account`, exchange);
      return note;
    },
  },
  {
    id: 'rule-isolation-update',
    operationId: 'updateLink',
    expectedStatus: 404,
    rule: true,
    title: "isolation: another account cannot update a link (404, as if it did not exist), and the link stays as it was",
    async run(ctx) {
      const otherKey = ctx.requireOtherAccount();
      const link = await ctx.createLink('iso-upd');
      const hijack = { destinationUrl: 'https://example.com/hijacked' };
      await ctx.call('updateLink', { id: link.id, json: hijack, apiKey: otherKey, expect: 404, what: "another account's key on this link (isolation)" });
      const { body, exchange } = await ctx.call('updateLink', { id: link.id, json: { tags: [] }, expect: 200, what: 'the owner, after another account tried to update it' });
      ctx.expectEqual((body as { destinationUrl?: string }).destinationUrl, link.destinationUrl, "destinationUrl after another account's update (isolation)", exchange);
    },
  },
  {
    id: 'rule-isolation-delete',
    operationId: 'deleteLink',
    expectedStatus: 404,
    rule: true,
    title: 'isolation: another account cannot delete a link (404, as if it did not exist), and the link survives',
    async run(ctx) {
      const otherKey = ctx.requireOtherAccount();
      const link = await ctx.createLink('iso-del');
      await ctx.call('deleteLink', { id: link.id, apiKey: otherKey, expect: 404, what: "another account's key on this link (isolation)" });
      await ctx.call('deleteLink', { id: link.id, expect: 204, what: "the owner, after another account tried to delete it (isolation: the link must still exist)" });
    },
  },
];
