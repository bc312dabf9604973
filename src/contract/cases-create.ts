// The checks of createLink, one per documented status and way to reach it from outside. Invalid
// bodies are rows of data: each must be a 400 Error object, and a server that accepts one anyway
// gets its link deleted at the end like any other.
import type { Exchange } from './client.js';
import type { Check } from './check-types.js';
import { DESTINATION, type CheckContext, type LinkView } from './context.js';

export const SCENARIO_HEADER = 'x-mock-scenario';
export const LINK_LIMIT_SCENARIO = 'link-limit-reached';

interface BadBody {
  label: string;
  what: string;
  /** `bad` is a create body unique to this row, so two accepted bad bodies never share a slug. */
  body: (bad: (overrides?: Record<string, unknown>) => Record<string, unknown>) => { json: unknown } | { rawBody: string };
}

const without = (body: Record<string, unknown>, field: string): Record<string, unknown> => Object.fromEntries(Object.entries(body).filter(([key]) => key !== field));

const BAD_CREATE_BODIES: BadBody[] = [
  { label: 'missing-destinationUrl', what: 'a body without destinationUrl', body: (bad) => ({ json: without(bad(), 'destinationUrl') }) },
  { label: 'relative-destinationUrl', what: "a destinationUrl without a scheme ('example.com/page')", body: (bad) => ({ json: bad({ destinationUrl: 'example.com/page' }) }) },
  { label: 'missing-domain', what: 'a body without domain', body: (bad) => ({ json: without(bad(), 'domain') }) },
  { label: 'missing-tags', what: 'a body without tags', body: (bad) => ({ json: without(bad(), 'tags') }) },
  { label: 'tags-not-array', what: "tags that are not an array ('news')", body: (bad) => ({ json: bad({ tags: 'news' }) }) },
  { label: 'unknown-field', what: "an unknown field 'title'", body: (bad) => ({ json: bad({ title: 'not a request field' }) }) },
  { label: 'slug-characters', what: "a slug with a space and a slash ('a b/c')", body: (bad) => ({ json: bad({ slug: 'a b/c' }) }) },
  { label: 'slug-too-long', what: 'a slug of 51 characters', body: (bad) => ({ json: bad({ slug: 's'.repeat(51) }) }) },
  { label: 'malformed-json', what: 'malformed JSON', body: () => ({ rawBody: '{"destinationUrl":' }) },
];

/** The link echoes what was sent, and shortUrl is https://<domain name>/<slug> (API document 2.1). */
export function expectLinkOf(ctx: CheckContext, link: LinkView, sent: { destinationUrl: string; domain: string; slug?: string }, exchange: Exchange): void {
  ctx.expectEqual(link.destinationUrl, sent.destinationUrl, 'destinationUrl of the link', exchange);
  ctx.expectEqual(link.domain.name, sent.domain, 'domain.name of the link', exchange);
  if (sent.slug) ctx.expectEqual(link.slug, sent.slug, 'slug of the link', exchange);
  ctx.expectEqual(link.shortUrl, `https://${sent.domain}/${link.slug}`, 'shortUrl (https://<domain name>/<slug>)', exchange);
}

const created: Check[] = [
  {
    id: 'createLink-201-slug',
    operationId: 'createLink',
    expectedStatus: 201,
    title: 'creates a link with the given slug; the Link echoes destinationUrl, domain and slug, and shortUrl is https://<domain>/<slug>',
    async run(ctx) {
      const link = await ctx.createLink('given');
      expectLinkOf(ctx, link, { destinationUrl: `${DESTINATION}/given`, domain: ctx.target.domain, slug: ctx.slug('given') }, link.exchange);
    },
  },
  ...(['omitted', 'empty'] as const).map(
    (how): Check => ({
      id: `createLink-201-slug-${how}`,
      operationId: 'createLink',
      expectedStatus: 201,
      title: `creates a link with the slug ${how === 'omitted' ? 'omitted' : 'empty ("")'}: a slug is generated`,
      async run(ctx) {
        // JSON.stringify drops an undefined slug: omitted means absent from the body.
        const link = await ctx.createLink(`gen-${how}`, { slug: how === 'empty' ? '' : undefined });
        expectLinkOf(ctx, link, { destinationUrl: `${DESTINATION}/gen-${how}`, domain: ctx.target.domain }, link.exchange);
      },
    }),
  ),
];

const refused: Check[] = BAD_CREATE_BODIES.map((row) => ({
  id: `createLink-400-${row.label}`,
  operationId: 'createLink',
  expectedStatus: 400,
  title: `refuses ${row.what} with a 400 Error`,
  async run(ctx) {
    await ctx.call('createLink', { ...row.body((overrides) => ctx.linkBody(`bad-${row.label}`, overrides)), expect: 400, what: row.what });
  },
}));

const linkLimit: Check = {
  id: 'createLink-400-link-limit-reached',
  operationId: 'createLink',
  expectedStatus: 400,
  title: `answers LINK_LIMIT_REACHED as a 400 Error with code LINK_LIMIT_REACHED (asked for with ${SCENARIO_HEADER}: ${LINK_LIMIT_SCENARIO})`,
  async run(ctx) {
    const headers = { [SCENARIO_HEADER]: LINK_LIMIT_SCENARIO };
    // No expected status: whatever the server answers must keep the contract; then we decide.
    const answer = await ctx.call('createLink', { json: ctx.linkBody('limit'), headers, what: `the header ${SCENARIO_HEADER}: ${LINK_LIMIT_SCENARIO}` });
    const code = (answer.body as { code?: unknown } | undefined)?.code;
    if (answer.status === 400 && code === 'LINK_LIMIT_REACHED') return;
    if (answer.status >= 200 && answer.status <= 299) {
      const id = (answer.body as { id?: string } | undefined)?.id;
      if (id) await ctx.call('deleteLink', { id, what: 'the link the scenario header did not prevent' });
    }
    ctx.notChecked(
      `the server does not support the ${SCENARIO_HEADER} header (it answered ${answer.status}${typeof code === 'string' ? ` with code ${code}` : ''}), ` +
        'and a client cannot fill an account to its limit; pass --limited-api-key, an account already at its limit, for the same answer without the header',
    );
  },
};

const unauthorized: Check[] = [
  { label: 'missing', what: 'no x-api-key header', apiKey: null, json: (ctx: CheckContext) => ctx.linkBody('nokey') },
  { label: 'unknown', what: 'an unknown x-api-key', apiKey: 'unknown', json: (ctx: CheckContext) => ctx.linkBody('badkey') },
  { label: 'missing-before-body', what: 'no x-api-key header and an invalid body (the key is checked first)', apiKey: null, json: () => ({ destinationUrl: 'not a url' }) },
].map((row) => ({
  id: `createLink-401-${row.label}`,
  operationId: 'createLink',
  expectedStatus: 401,
  title: `refuses ${row.what} with a 401 Error`,
  async run(ctx: CheckContext) {
    const apiKey = row.apiKey === null ? null : `contract-suite-wrong-key-${ctx.runId}`;
    await ctx.call('createLink', { json: row.json(ctx), apiKey, expect: 401, what: row.what });
  },
}));

const notFound: Check[] = [
  {
    id: 'createLink-404-unknown-domain',
    operationId: 'createLink',
    expectedStatus: 404,
    title: 'answers an unknown domain with a 404 Error',
    async run(ctx) {
      const domain = `no-such-domain-${ctx.runId}.invalid`;
      await ctx.call('createLink', { json: ctx.linkBody('nodomain', { domain }), expect: 404, what: `the unknown domain '${domain}'` });
    },
  },
  {
    id: 'createLink-404-unknown-tag-id',
    operationId: 'createLink',
    expectedStatus: 404,
    title: 'answers a tag id that does not exist in the account with a 404 Error',
    async run(ctx) {
      const tags = [{ id: `tag_${ctx.runId}_none`, name: 'contract-suite-ghost' }];
      await ctx.call('createLink', { json: ctx.linkBody('notag', { tags }), expect: 404, what: `the unknown tag id '${tags[0]?.id}'` });
    },
  },
];

export const CREATE_CHECKS: readonly Check[] = [...created, ...refused, linkLimit, ...unauthorized, ...notFound];
