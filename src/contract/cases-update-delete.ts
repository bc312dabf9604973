// The checks of updateLink and deleteLink, one per documented status and way to reach it. Each
// check creates the link it works on (unique slug, deleted at the end) and touches nothing else:
// unknown ids carry the run id, so they can never name a real link of the account.
import type { Check } from './check-types.js';
import { DESTINATION, type CheckContext, type LinkView } from './context.js';

export const TAG_A = 'contract-suite-a';
export const TAG_B = 'contract-suite-b';

const unknownId = (ctx: CheckContext): string => `lnk_${ctx.runId}_none`;
const wrongKey = (ctx: CheckContext): string => `contract-suite-wrong-key-${ctx.runId}`;

const BAD_UPDATE_BODIES: { label: string; what: string; body: { json: unknown } | { rawBody: string } }[] = [
  { label: 'empty', what: 'an empty body {} (neither destinationUrl nor tags)', body: { json: {} } },
  { label: 'slug', what: "the field 'slug' (not part of the update body)", body: { json: { slug: 'renamed' } } },
  { label: 'domain', what: "the field 'domain' (not part of the update body)", body: { json: { domain: 'short.test' } } },
  { label: 'relative-destinationUrl', what: "a destinationUrl without a scheme ('example.com')", body: { json: { destinationUrl: 'example.com' } } },
  { label: 'tags-not-array', what: "tags that are not an array ('news')", body: { json: { tags: 'news' } } },
  { label: 'malformed-json', what: 'malformed JSON', body: { rawBody: '{"tags":' } },
];

const update: Check[] = [
  {
    id: 'updateLink-200-destinationUrl',
    operationId: 'updateLink',
    expectedStatus: 200,
    title: 'updates destinationUrl: 200 with the Link, same id, slug, domain and shortUrl',
    async run(ctx) {
      const link = await ctx.createLink('upd-dest');
      const destinationUrl = `${DESTINATION}/moved`;
      const { body, exchange } = await ctx.call('updateLink', { id: link.id, json: { destinationUrl }, expect: 200, what: 'a new destinationUrl' });
      const updated = body as typeof link;
      ctx.expectEqual(updated.destinationUrl, destinationUrl, 'destinationUrl after the update', exchange);
      for (const field of ['id', 'slug', 'domain', 'shortUrl'] as const) ctx.expectEqual(updated[field], link[field], `${field} after the update`, exchange);
    },
  },
  {
    id: 'updateLink-200-destinationUrl-keeps-tags',
    operationId: 'updateLink',
    expectedStatus: 200,
    title: 'updates only destinationUrl: 200, and the link keeps its tags (tags omitted means unchanged)',
    async run(ctx) {
      const link = await ctx.createLink('upd-keep', { tags: [{ name: TAG_A }, { name: TAG_B }] });
      // Without tags to keep, the check below could not fail.
      ctx.expectEqual(link.tags.map((tag) => tag.name).sort(), [TAG_A, TAG_B], 'tag names of the new link', link.exchange);
      const { body, exchange } = await ctx.call('updateLink', { id: link.id, json: { destinationUrl: `${DESTINATION}/kept` }, expect: 200, what: 'only a new destinationUrl' });
      // Sorted: the API document does not fix the order of a link's tags.
      const sorted = (tags: LinkView['tags']): LinkView['tags'] => [...tags].sort((a, b) => a.name.localeCompare(b.name));
      ctx.expectEqual(sorted((body as LinkView).tags), sorted(link.tags), 'tags after an update that sent only destinationUrl (omitted tags mean unchanged)', exchange);
    },
  },
  {
    id: 'updateLink-200-tags',
    operationId: 'updateLink',
    expectedStatus: 200,
    title: 'updates tags: 200, and the new tags replace the old ones while destinationUrl stays',
    async run(ctx) {
      const link = await ctx.createLink('upd-tags', { tags: [{ name: TAG_A }] });
      const { body, exchange } = await ctx.call('updateLink', { id: link.id, json: { tags: [{ name: TAG_B }] }, expect: 200, what: `tags [${TAG_B}]` });
      const updated = body as typeof link;
      ctx.expectEqual(updated.tags.map((tag) => tag.name), [TAG_B], 'tag names after replacing the tags', exchange);
      ctx.expectEqual(updated.destinationUrl, link.destinationUrl, 'destinationUrl after a tags-only update', exchange);
    },
  },
  ...BAD_UPDATE_BODIES.map(
    (row): Check => ({
      id: `updateLink-400-${row.label}`,
      operationId: 'updateLink',
      expectedStatus: 400,
      title: `refuses ${row.what} with a 400 Error`,
      async run(ctx) {
        const link = await ctx.createLink(`upd-bad-${row.label}`.slice(0, 20));
        await ctx.call('updateLink', { id: link.id, ...row.body, expect: 400, what: row.what });
      },
    }),
  ),
  ...(['missing', 'unknown'] as const).map(
    (how): Check => ({
      id: `updateLink-401-${how}-key`,
      operationId: 'updateLink',
      expectedStatus: 401,
      title: `refuses ${how === 'missing' ? 'no x-api-key header' : 'an unknown x-api-key'} with a 401 Error`,
      async run(ctx) {
        const link = await ctx.createLink(`upd-401-${how}`);
        const apiKey = how === 'missing' ? null : wrongKey(ctx);
        await ctx.call('updateLink', { id: link.id, json: { tags: [] }, apiKey, expect: 401, what: `${how} x-api-key` });
      },
    }),
  ),
  {
    id: 'updateLink-404-unknown-id',
    operationId: 'updateLink',
    expectedStatus: 404,
    title: 'answers an unknown link id with a 404 Error',
    async run(ctx) {
      await ctx.call('updateLink', { id: unknownId(ctx), json: { tags: [] }, expect: 404, what: `the unknown id '${unknownId(ctx)}'` });
    },
  },
];

const remove: Check[] = [
  {
    id: 'deleteLink-204',
    operationId: 'deleteLink',
    expectedStatus: 204,
    title: 'deletes a link: 204 without a body',
    async run(ctx) {
      const link = await ctx.createLink('del');
      await ctx.call('deleteLink', { id: link.id, expect: 204, what: 'a link of the account' });
    },
  },
  ...(['missing', 'unknown'] as const).map(
    (how): Check => ({
      id: `deleteLink-401-${how}-key`,
      operationId: 'deleteLink',
      expectedStatus: 401,
      title: `refuses ${how === 'missing' ? 'no x-api-key header' : 'an unknown x-api-key'} with a 401 Error, and the link survives`,
      async run(ctx) {
        const link = await ctx.createLink(`del-401-${how}`);
        const apiKey = how === 'missing' ? null : wrongKey(ctx);
        await ctx.call('deleteLink', { id: link.id, apiKey, expect: 401, what: `${how} x-api-key` });
        await ctx.call('deleteLink', { id: link.id, expect: 204, what: 'the owner, after a refused delete (the link must still exist)' });
      },
    }),
  ),
  {
    id: 'deleteLink-404-unknown-id',
    operationId: 'deleteLink',
    expectedStatus: 404,
    title: 'answers an unknown link id with a 404 Error',
    async run(ctx) {
      await ctx.call('deleteLink', { id: unknownId(ctx), expect: 404, what: `the unknown id '${unknownId(ctx)}'` });
    },
  },
];

export const UPDATE_DELETE_CHECKS: readonly Check[] = [...update, ...remove];
