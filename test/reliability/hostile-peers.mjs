// The hostile upstream and its clients for hostile-proxy.test.ts, in a process of their own: reading
// and writing 80 answers of 16 MiB costs the test process its own event loop (and collections), and
// /__admin/health, timed from the test process, would measure that rather than the mock.
//   node hostile-peers.mjs upstream <kind>       serves the answers; prints its URL
//   node hostile-peers.mjs load <kind> <mockUrl>  sends one load through the mock; prints a JSON summary, exits
// kind: 'big' (a 16 MiB Error object, 404) or 'fields' (a link with 1 MiB of distinct unknown fields, 201).
import http from 'node:http';

const [mode, kind, mockUrl] = process.argv.slice(2);
const LINK = { id: 'lnk_1', createdAt: '2026-01-01T00:00:00Z', destinationUrl: 'https://e.test/', slug: 'abc', domain: { id: 'dom_1', name: 'short.test' }, shortUrl: 'https://short.test/abc', tags: [] };

const KINDS = {
  big: {
    status: 404,
    // Cheap to validate, costly to hold: 16 MiB less 1 KiB.
    body: () => Buffer.from(JSON.stringify({ errorDescription: 'x'.repeat(16 * 1024 * 1024 - 1024 - 40) })),
    // Half outside the contract (GET: only previewed for the journal), half judged (updateLink's 404 is an Error object).
    requests: Array.from({ length: 80 }, (_, n) => (n % 2 ? { method: 'PUT', path: `/links/big${n}`, body: JSON.stringify({ destinationUrl: 'https://e.test/' }) } : { method: 'GET', path: `/links/big${n}` })),
    sockets: 80,
  },
  fields: {
    status: 201,
    // V8 parses each distinct field name as a new shape: 100-600 ms a parse on the event loop.
    body: () => Buffer.from(JSON.stringify({ ...LINK, ...Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`field${i}`, i])) })),
    requests: Array.from({ length: 24 }, () => ({ method: 'POST', path: '/links', body: JSON.stringify({ destinationUrl: 'https://e.test/', domain: 'short.test', tags: [] }) })),
    sockets: 16,
  },
};

const chosen = KINDS[kind];
if (!chosen) throw new Error(`unknown kind ${kind}`);
const body = chosen.body();

if (mode === 'upstream') {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(chosen.status, { 'content-type': 'application/json' }).end(body));
  });
  server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
} else if (mode === 'load') {
  const agent = new http.Agent({ keepAlive: kind === 'fields', maxSockets: chosen.sockets });
  const answers = await Promise.all(chosen.requests.map((request) => sizeOf(agent, request)));
  agent.destroy();
  console.log(JSON.stringify({ expectedBytes: body.length, answers }));
} else {
  throw new Error(`unknown mode ${mode}`);
}

/** One request whose answer is counted, not kept. */
function sizeOf(agent, { method, path, body: sent }) {
  return new Promise((resolve, reject) => {
    const headers = { 'x-api-key': 'demo-key', ...(sent === undefined ? {} : { 'content-type': 'application/json' }) };
    const req = http.request(new URL(path, mockUrl), { method, agent, headers, timeout: 60_000 }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('end', () => resolve({ method, status: res.statusCode ?? 0, bytes, violations: Number(res.headers['x-contract-violations'] ?? 0) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 60 s')));
    req.on('error', reject);
    req.end(sent);
  });
}
