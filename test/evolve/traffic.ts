// The fixture traffic of the evolve tests: three consumers of a mock, each an account named as the
// consumer and a user-agent of its own, with distinct calls:
//  - "Acme web app" creates a plain link and deletes it (204), then deletes it again (404);
//  - "Acme SDK" creates with a custom slug and two tags, then replaces the tags (200);
//  - "QA script" forces scenarios: LINK_LIMIT_REACHED on create, a 404 on update, a 401 on create.
import type { Link } from '../../src/core/api-types.js';
import type { RunningMock } from '../../src/index.js';

export const WEB = 'Acme web app';
export const SDK = 'Acme SDK';
export const QA = 'QA script';
export const CONSUMERS = [WEB, SDK, QA] as const;
export const USER_AGENTS: Record<string, string> = { [WEB]: 'acme-web/3.2', [SDK]: 'acme-sdk-js/1.4', [QA]: 'qa-script/0.9' };

interface Caller {
  send: (method: string, path: string, body?: unknown, scenario?: string) => Promise<Response>;
}

/** A consumer's calls to `target` (the mock, or a proxy in front of it) with its own key and user-agent. */
function caller(target: string, apiKey: string, consumer: string): Caller {
  return {
    send: (method, path, body, scenario) =>
      fetch(`${target}${path}`, {
        method,
        headers: { 'x-api-key': apiKey, 'user-agent': USER_AGENTS[consumer] ?? consumer, ...(scenario ? { 'x-mock-scenario': scenario } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
  };
}

async function expectStatus(response: Promise<Response>, status: number): Promise<Response> {
  const answered = await response;
  if (answered.status !== status) throw new Error(`fixture traffic: expected ${status}, got ${answered.status}: ${await answered.text()}`);
  return answered;
}

/** Makes the three accounts on `mock` and sends their traffic to `target` (default: the mock itself); the consumers' API keys. */
export async function recordTraffic(mock: RunningMock, target = mock.url): Promise<Record<string, string>> {
  const keys: Record<string, string> = {};
  for (const consumer of CONSUMERS) keys[consumer] = (await mock.account({ name: consumer })).apiKey;
  const web = caller(target, keys[WEB] ?? '', WEB);
  const created = (await (await expectStatus(web.send('POST', '/links', { destinationUrl: 'https://example.com/web', domain: 'short.test', tags: [] }), 201)).json()) as Link;
  await expectStatus(web.send('DELETE', `/links/${created.id}`), 204);
  await expectStatus(web.send('DELETE', `/links/${created.id}`), 404);

  const sdk = caller(target, keys[SDK] ?? '', SDK);
  const body = { destinationUrl: 'https://example.com/spring', domain: 'short.test', slug: 'spring-sale-2026', tags: [{ name: 'marketing' }, { name: 'q3-campaign' }] };
  const link = (await (await expectStatus(sdk.send('POST', '/links', body), 201)).json()) as Link;
  await expectStatus(sdk.send('PUT', `/links/${link.id}`, { tags: [{ name: 'marketing' }] }), 200);

  const qa = caller(target, keys[QA] ?? '', QA);
  const minimal = { destinationUrl: 'https://example.com/qa', domain: 'short.test', tags: [] };
  await expectStatus(qa.send('POST', '/links', minimal, 'link-limit-reached'), 400);
  await expectStatus(qa.send('PUT', '/links/lnk_missing', { destinationUrl: 'https://example.com/qa2' }, 'not-found'), 404);
  await expectStatus(qa.send('POST', '/links', minimal, 'unauthorized'), 401);
  return keys;
}
