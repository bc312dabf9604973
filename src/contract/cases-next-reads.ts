// The cases of the operations a contract FILE adds (issue 38), from the mock's classification: a
// read of one link returns the link created (another account's link and an unknown id are a 404, no
// key a 401); a list returns the links created and honours its limit; any other new GET without
// required parameters answers its success status. A status FILE does not document gets no case.
import type { ServedOperation } from '../core/contract-classes.js';
import type { Check } from './check-types.js';
import type { CheckContext } from './context.js';
import { listQueryOf, nextCursorOf } from '../core/list-query.js';
import type { NextContract } from './next-contract.js';

/** Pages of a list read, at most, while looking for the links a case created. */
export const MAX_LIST_PAGES = 100;

type Node = Record<string, unknown>;

function operationNode(next: NextContract, operation: ServedOperation): Node {
  const item = (next.document.paths?.[operation.path] ?? {}) as Node;
  return (item[operation.method.toLowerCase()] ?? {}) as Node;
}

function documented(next: NextContract, operation: ServedOperation): number[] {
  return Object.keys((operationNode(next, operation)['responses'] ?? {}) as Node).filter((code) => /^\d{3}$/.test(code)).map(Number);
}

export function readChecks(next: NextContract): Check[] {
  return next.classes.operations.flatMap((operation) => {
    const statuses = documented(next, operation);
    const checks = operation.read === 'one' ? readOneChecks(operation) : operation.read === 'list' ? listChecks(next, operation) : operation.served === 'generated' ? generatedChecks(next, operation, statuses) : [];
    return checks.filter((check) => check.expectedStatus === null || statuses.includes(check.expectedStatus));
  });
}

const unknownId = (ctx: CheckContext): string => `lnk_${ctx.runId}_none`;

function readOneChecks({ operationId }: ServedOperation): Check[] {
  const check = (status: number, suffix: string, title: string, run: Check['run']): Check => ({ id: `${operationId}-${status}-${suffix}`, operationId, expectedStatus: status, title, run });
  return [
    check(200, 'created-link', 'reads a link the account created: 200 with the Link exactly as createLink answered it', async (ctx) => {
      const { exchange: _created, ...link } = await ctx.createLink('read-one');
      const { body, exchange } = await ctx.call(operationId, { id: link.id, expect: 200, what: 'a link of the account' });
      ctx.expectEqual(body, link, 'the link read', exchange);
    }),
    check(404, 'other-account', "answers another account's link with a 404 Error, as if it did not exist", async (ctx) => {
      const otherKey = ctx.requireOtherAccount();
      const link = await ctx.createLink('read-other');
      await ctx.call(operationId, { id: link.id, apiKey: otherKey, expect: 404, what: "the second account's key on the first account's link" });
    }),
    check(404, 'unknown-id', 'answers an unknown link id with a 404 Error', async (ctx) => {
      await ctx.call(operationId, { id: unknownId(ctx), expect: 404, what: `the unknown id '${unknownId(ctx)}'` });
    }),
    check(401, 'missing-key', 'refuses no x-api-key header with a 401 Error', async (ctx) => {
      const link = await ctx.createLink('read-401');
      await ctx.call(operationId, { id: link.id, apiKey: null, expect: 401, what: 'no x-api-key' });
    }),
  ];
}

function listChecks(next: NextContract, operation: ServedOperation): Check[] {
  const { operationId, itemsField } = operation;
  const query = listQueryOf(next.document, operation);
  const itemsOf = (body: unknown): Node[] => ((itemsField ? (body as Node | undefined)?.[itemsField] : body) as Node[] | undefined) ?? [];
  return [
    {
      id: `${operationId}-200-created-links`,
      operationId,
      expectedStatus: 200,
      title: `lists the links the account created${query.cursor ? ` (following ${query.cursor} page by page)` : ''}, each as createLink answered it`,
      async run(ctx) {
        const created = [await ctx.createLink('list-a'), await ctx.createLink('list-b')].map(({ exchange: _exchange, ...link }) => link);
        const wanted = new Map<string, unknown>(created.map((link) => [link.id, link]));
        const first = query.limit?.maximum === undefined ? {} : { [query.limit.name]: String(query.limit.maximum) };
        let params: Record<string, string> | undefined = first;
        for (let page = 0; params && page < MAX_LIST_PAGES && wanted.size > 0; page++) {
          const { body, exchange } = await ctx.call(operationId, { query: params, expect: 200, what: `page ${page + 1}` });
          for (const item of itemsOf(body)) {
            const link = wanted.get(item['id'] as string);
            if (link === undefined) continue;
            ctx.expectEqual(item, link, `the listed link ${String(item['id'])}`, exchange);
            wanted.delete(item['id'] as string);
          }
          const cursor = query.cursor && nextCursorOf(body, itemsField);
          params = cursor ? { ...first, [query.cursor!]: cursor } : undefined;
        }
        if (wanted.size > 0) ctx.fail(`the links created (${[...wanted.keys()].join(', ')}) are not in the list${query.cursor ? ` (read up to ${MAX_LIST_PAGES} pages)` : ' (FILE names no cursor parameter: only its first page is read)'}`);
      },
    },
    {
      id: `${operationId}-200-limit`,
      operationId,
      expectedStatus: 200,
      title: `honours its limit${query.limit ? ` '${query.limit.name}'` : ''}: ${query.limit?.name ?? 'limit'}=1 lists exactly one link`,
      async run(ctx) {
        const limit = query.limit?.name ?? ctx.notChecked('FILE gives this list no integer limit parameter (limit, pageSize, perPage, size, count, maxResults)');
        await ctx.createLink('list-limit');
        const { body, exchange } = await ctx.call(operationId, { query: { [limit]: '1' }, expect: 200, what: `${limit}=1` });
        ctx.expectEqual(itemsOf(body).length, 1, `links listed with ${limit}=1 (the account has at least one)`, exchange);
      },
    },
    {
      id: `${operationId}-401-missing-key`,
      operationId,
      expectedStatus: 401,
      title: 'refuses no x-api-key header with a 401 Error',
      async run(ctx) {
        await ctx.call(operationId, { apiKey: null, expect: 401, what: 'no x-api-key' });
      },
    },
  ];
}

/** A new GET FILE adds without a path or required parameter: it answers its first documented 2xx with a valid body. */
function generatedChecks(next: NextContract, operation: ServedOperation, statuses: number[]): Check[] {
  const success = statuses.find((status) => status >= 200 && status <= 299);
  const parameters = (operationNode(next, operation)['parameters'] as Node[] | undefined) ?? [];
  if (operation.method !== 'GET' || success === undefined || operation.path.includes('{') || parameters.some((parameter) => parameter['required'] === true)) return [];
  return [
    {
      id: `${operation.operationId}-${success}-answers`,
      operationId: operation.operationId,
      expectedStatus: success,
      title: `the operation FILE adds answers ${success} with a body valid by FILE`,
      async run(ctx) {
        await ctx.call(operation.operationId, { expect: success, what: 'the account key' });
      },
    },
  ];
}
