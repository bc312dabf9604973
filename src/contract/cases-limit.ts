// LINK_LIMIT_REACHED on any server, through an account that is already at its link limit
// (--limited-api-key): a create is refused with that code and leaves nothing behind that the public
// API can show, while the account can still update and delete. The suite leaves the account as it
// found it, at its limit: it cannot create a link there, and it never deletes one of the account's
// links, because a link created in its place would get a new id (and --limited-link-id would go stale).
import type { Check } from './check-types.js';
import { DESTINATION, type LinkView } from './context.js';

const LIMIT_CODE = 'LINK_LIMIT_REACHED';
const LIMITED = 'the account at its link limit';
/** The same on every run, so that updating the limited account's link changes nothing after the first run. */
export const LIMITED_DESTINATION = `${DESTINATION}/limited-account`;

export const LIMIT_CHECKS: readonly Check[] = [
  {
    id: 'rule-limit-create-refused',
    operationId: 'createLink',
    expectedStatus: 400,
    rule: true,
    title: `an account at its link limit: a create is a 400 Error with code ${LIMIT_CODE}, and nothing is created`,
    async run(ctx) {
      const limitedKey = ctx.requireLimitedAccount();
      const { body, exchange } = await ctx.call('createLink', { json: ctx.linkBody('limit-acct'), apiKey: limitedKey, expect: 400, what: `a valid body from ${LIMITED}` });
      ctx.expectEqual((body as { code?: unknown }).code, LIMIT_CODE, `code of the 400 for ${LIMITED}`, exchange);
      return (await ctx.expectSlugFree('limit-acct', {}, LIMITED)).note;
    },
  },
  {
    id: 'rule-limit-update',
    operationId: 'updateLink',
    expectedStatus: 200,
    rule: true,
    title: 'an account at its link limit can still update its links: 200 with the same link',
    async run(ctx) {
      const limitedKey = ctx.requireLimitedAccount();
      const id =
        ctx.target.limitedLinkId ??
        ctx.notChecked("no link of the account at its link limit: pass --limited-link-id (CONTRACT_LIMITED_LINK_ID), one of its links the suite may update; the API cannot list an account's links");
      const json = { destinationUrl: LIMITED_DESTINATION };
      const { body, exchange } = await ctx.call('updateLink', { id, json, apiKey: limitedKey, expect: 200, what: `a new destinationUrl from ${LIMITED}, on its link '${id}'` });
      ctx.expectEqual((body as LinkView).id, id, 'id of the updated link', exchange);
      ctx.expectEqual((body as LinkView).destinationUrl, LIMITED_DESTINATION, 'destinationUrl of the updated link', exchange);
      return `the link '${id}' now points to ${LIMITED_DESTINATION} (the same on every run); its slug, domain and tags are left as they were`;
    },
  },
  {
    id: 'rule-limit-delete',
    operationId: 'deleteLink',
    expectedStatus: 404,
    rule: true,
    title: 'an account at its link limit is not refused a delete for its limit: a delete of an unknown id gets to the lookup (404)',
    async run(ctx) {
      const limitedKey = ctx.requireLimitedAccount();
      const id = `lnk_${ctx.runId}_none`;
      await ctx.call('deleteLink', { id, apiKey: limitedKey, expect: 404, what: `an unknown id from ${LIMITED}` });
      return 'a delete of one of its existing links is not made: it would take that link away for good (a link created in its place gets a new id)';
    },
  },
];
