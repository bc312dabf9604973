// The workloads, as autocannon options for a base URL, with the statuses each one expects. The
// same requests go to the mock and to the baseline. A status outside `expected`, a connection
// error or a timeout makes a round invalid: it is reported, never hidden.
const API_KEY = { 'x-api-key': 'demo-key', 'content-type': 'application/json' };
const CREATE_BODY = JSON.stringify({ destinationUrl: 'https://example.com/bench', domain: 'short.test', tags: [{ name: 'bench' }] });
const UPDATE_BODY = JSON.stringify({ destinationUrl: 'https://example.com/bench-updated', tags: [] });
const create = { method: 'POST', path: '/links', headers: API_KEY, body: CREATE_BODY };
const READS_PER_WRITE = 9;

export const WORKLOADS = {
  create: {
    describe: 'POST /links (demo-key, no slug: a random one is generated, one tag), a new link per request',
    expected: [201],
    requests: () => [create],
  },
  mixed: {
    describe: 'per connection: POST /links → PUT /links/{the new id} → DELETE /links/{id} (the store size stays put)',
    expected: [201, 200, 204],
    requests: () => [
      { ...create, onResponse: (status, body, context) => void (context.id = status === 201 ? JSON.parse(body).id : 'lnk_createFailed0000') },
      { method: 'PUT', headers: API_KEY, body: UPDATE_BODY, setupRequest: (request, context) => ({ ...request, path: `/links/${context.id}` }) },
      { method: 'DELETE', headers: { 'x-api-key': 'demo-key' }, setupRequest: (request, context) => ({ ...request, path: `/links/${context.id}` }) },
    ],
  },
  scenario: {
    describe: 'POST /links with x-mock-scenario: link-limit-reached: every answer is the forced 400 LINK_LIMIT_REACHED (the baseline answers a fixed 400)',
    expected: [400],
    requests: () => [{ ...create, headers: { ...API_KEY, 'x-mock-scenario': 'link-limit-reached' } }],
  },
  'read-heavy': {
    describe: `per connection: ${READS_PER_WRITE}× GET /__admin/links?account=other-key (the 15 links of a small account, admin-contract validated, constant size whatever the store holds) then 1× POST /links`,
    expected: [200, 201],
    requests: () => [...Array.from({ length: READS_PER_WRITE }, () => ({ method: 'GET', path: '/__admin/links?account=other-key' })), create],
  },
};

export const CONNECTIONS = 50;

export function autocannonOptions(name, url, durationSec) {
  return { url, connections: CONNECTIONS, duration: durationSec, requests: WORKLOADS[name].requests(), timeout: 10 };
}

/** Status counts of a result, and whether the round is valid for its workload. */
export function verdict(name, result) {
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]));
  const unexpected = Object.entries(statuses).filter(([code]) => !WORKLOADS[name].expected.includes(Number(code)));
  const problems = [
    ...unexpected.map(([code, count]) => `${count}× status ${code}`),
    ...(result.errors ? [`${result.errors} errors (${result.timeouts} timeouts)`] : []),
    ...(Object.keys(statuses).length === 0 ? ['no responses'] : []),
  ];
  return { statuses, valid: problems.length === 0, problems };
}
