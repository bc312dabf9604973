// The little API client the brittle clients share: what a frontend's data layer does, with fetch,
// against the mock at MOCK_URL (set by `shortlink-mock robustness`), as the fixture account demo-key.
const base = process.env.MOCK_URL;
if (!base) throw new Error('MOCK_URL is not set: run me through shortlink-mock robustness');

async function call(method, path, body) {
  const response = await fetch(`${base}${path}`, { method, headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return { response, link: await response.json() };
}

export const createLink = (body) => call('POST', '/links', body);
export const updateLink = (id, body) => call('PUT', `/links/${encodeURIComponent(id)}`, body);

/** The client's own test assertion: a failing one ends the program with exit 1, as a test runner would. */
export function check(condition, message) {
  if (condition) return;
  console.error(`FAIL: ${message}`);
  process.exit(1);
}

export const newLink = { destinationUrl: 'https://example.com/spring-sale', domain: 'short.test', tags: [{ name: 'alpha' }, { name: 'beta' }, { name: 'marketing' }, { name: 'q3-campaign' }] };
