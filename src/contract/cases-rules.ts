// The stateful rules of the API document, each a short story over several requests: a link's
// life (create → update → delete → gone), slugs unique per domain, tags reused by name (isolation
// between accounts and the link limit have their own files). Each is filed under the operation and
// status its last, deciding request must answer.
import type { Check } from './check-types.js';
import { DESTINATION } from './context.js';

/** A fixed name, so that repeated runs reuse one tag instead of leaving new ones behind (tags cannot be deleted). */
export const TAG_REUSE = 'contract-suite-reuse';

export const RULE_CHECKS: readonly Check[] = [
  {
    id: 'rule-lifecycle',
    operationId: 'deleteLink',
    expectedStatus: 404,
    rule: true,
    title: 'lifecycle: create (201) → update (200) → delete (204) → update and delete answer 404',
    async run(ctx) {
      const link = await ctx.createLink('life');
      await ctx.call('updateLink', { id: link.id, json: { destinationUrl: `${DESTINATION}/life-2` }, expect: 200, what: 'the new link' });
      await ctx.call('deleteLink', { id: link.id, expect: 204, what: 'the updated link' });
      await ctx.call('updateLink', { id: link.id, json: { tags: [] }, expect: 404, what: 'the deleted link (it must be gone)' });
      await ctx.call('deleteLink', { id: link.id, expect: 404, what: 'the deleted link, a second time' });
    },
  },
  {
    id: 'rule-slug-freed-by-delete',
    operationId: 'createLink',
    expectedStatus: 201,
    rule: true,
    title: 'a deleted link frees its slug: the same slug can be created again in the domain',
    async run(ctx) {
      const link = await ctx.createLink('freed');
      await ctx.call('deleteLink', { id: link.id, expect: 204, what: 'the first link of the slug' });
      await ctx.call('createLink', { json: ctx.linkBody('freed'), expect: 201, what: `the slug '${link.slug}' again, after its link was deleted` });
    },
  },
  {
    id: 'rule-slug-unique-in-domain',
    operationId: 'createLink',
    expectedStatus: 400,
    rule: true,
    title: 'slugs are unique per domain: the same slug twice in one domain is a 400 Error',
    async run(ctx) {
      const link = await ctx.createLink('taken');
      await ctx.call('createLink', { json: ctx.linkBody('taken'), expect: 400, what: `the slug '${link.slug}' already taken in '${ctx.target.domain}'` });
    },
  },
  {
    id: 'rule-slug-other-domain',
    operationId: 'createLink',
    expectedStatus: 201,
    rule: true,
    title: 'the same slug in another domain of the account is fine (201)',
    async run(ctx) {
      const otherDomain = ctx.target.otherDomain ?? ctx.notChecked('no second domain: pass --other-domain (CONTRACT_OTHER_DOMAIN), a custom domain of the account');
      const link = await ctx.createLink('twice');
      const again = await ctx.createLink('twice', { domain: otherDomain });
      ctx.expectEqual(again.slug, link.slug, `slug of the link in '${otherDomain}'`, again.exchange);
      ctx.expectEqual(again.shortUrl, `https://${otherDomain}/${link.slug}`, 'shortUrl in the other domain', again.exchange);
    },
  },
  {
    id: 'rule-tag-reuse-by-name',
    operationId: 'createLink',
    expectedStatus: 201,
    rule: true,
    title: 'tags are reused by name: two links with the same tag name get the same tag id, which may then be sent as id',
    async run(ctx) {
      const first = await ctx.createLink('tag-1', { tags: [{ name: TAG_REUSE }] });
      const tagId = first.tags[0]?.id ?? ctx.fail(`the Link has no tag id for '${TAG_REUSE}'`, first.exchange);
      const second = await ctx.createLink('tag-2', { tags: [{ name: TAG_REUSE }] });
      ctx.expectEqual(second.tags, [{ id: tagId, name: TAG_REUSE }], `tags of a second link with the tag name '${TAG_REUSE}' (same id: reused)`, second.exchange);
      const third = await ctx.createLink('tag-3', { tags: [{ id: tagId, name: TAG_REUSE }] });
      ctx.expectEqual(third.tags, [{ id: tagId, name: TAG_REUSE }], 'tags of a link that names the existing tag by id', third.exchange);
    },
  },
  {
    id: 'rule-tag-id-name-mismatch',
    operationId: 'createLink',
    expectedStatus: 400,
    rule: true,
    title: 'a tag id sent with a name that is not that tag\'s name is a 400 Error',
    async run(ctx) {
      const first = await ctx.createLink('tag-m', { tags: [{ name: TAG_REUSE }] });
      const tagId = first.tags[0]?.id ?? ctx.fail(`the Link has no tag id for '${TAG_REUSE}'`, first.exchange);
      const tags = [{ id: tagId, name: `${TAG_REUSE}-not` }];
      await ctx.call('createLink', { json: ctx.linkBody('tag-mm', { tags }), expect: 400, what: `the tag id '${tagId}' with another name` });
    },
  },
];
