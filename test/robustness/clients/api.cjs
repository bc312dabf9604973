// The little API client the brittle clients share: what a frontend's data layer does, against the
// mock at MOCK_URL (set by `shortlink-mock robustness`), with the key in MOCK_API_KEY (set with
// --api-key), else as the fixture account demo-key; CLIENT_API_KEY plays a client that sends a key of
// its own whatever it is given. It speaks
// HTTP with node:http and hands the clients a fetch-like answer (ok, status, headers.get, text,
// json): Node 20's fetch compiles its WebAssembly HTTP parser at every start, most of a client
// run's CPU, and the robustness tests start hundreds of them (test/robustness/client-node.ts).
const { request: httpRequest } = require('node:http');

const base = process.env.MOCK_URL;
if (!base) throw new Error('MOCK_URL is not set: run me through shortlink-mock robustness');
const apiKey = process.env.CLIENT_API_KEY || process.env.MOCK_API_KEY || 'demo-key';

async function send(method, path, body) {
  const url = new URL(`${base}${path}`);
  const text = JSON.stringify(body);
  // node:https only for an https mock: importing it loads tls and crypto, 5 ms of CPU a start
  // (97 -> 93 ms a client run), and the runner's own mock is http.
  const request = url.protocol === 'https:' ? require('node:https').request : httpRequest;
  return new Promise((resolve, reject) => {
    const headers = { 'x-api-key': apiKey, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
    const sent = request(url, { method, headers }, (answer) => {
      const chunks = [];
      answer.on('data', (chunk) => chunks.push(chunk));
      answer.on('error', reject);
      answer.on('end', () => resolve(fetchLike(answer, Buffer.concat(chunks).toString('utf8'))));
    });
    sent.on('error', reject);
    sent.end(text);
  });
}

/** The parts of a fetch Response the clients read. */
function fetchLike(answer, text) {
  const status = answer.statusCode ?? 0;
  return {
    status,
    ok: status >= 200 && status < 300,
    // As fetch's Headers.get: repeated headers joined with ', '.
    headers: { get: (name) => [answer.headers[name.toLowerCase()] ?? []].flat().join(', ') || null },
    text: async () => text,
    json: async () => JSON.parse(text),
  };
}

async function call(method, path, body) {
  const response = await send(method, path, body);
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return { response, link: await response.json() };
}

const createLink = (body) => call('POST', '/links', body);
const updateLink = (id, body) => call('PUT', `/links/${encodeURIComponent(id)}`, body);

/** The client's own test assertion: a failing one ends the program with exit 1, as a test runner would. */
function check(condition, message) {
  if (condition) return;
  console.error(`FAIL: ${message}`);
  process.exit(1);
}

const newLink = { destinationUrl: 'https://example.com/spring-sale', domain: 'short.test', tags: [{ name: 'alpha' }, { name: 'beta' }, { name: 'marketing' }, { name: 'q3-campaign' }] };

module.exports = { check, createLink, newLink, send, updateLink };
