// A stand-in for a mock in variety mode, for the runner's own tests until (and besides) the real
// one: a real HTTP server on a free port with the admin routes the runner uses, and one API route
// whose answer names the dimensions it varied. Which dimensions a seed varies is a fixed function
// of the seed, so a seed replays exactly, and `only`/`except` narrow it as the real mock does.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_DIMENSIONS = ['getThing.a:absent', 'getThing.b:edge', 'getThing.c:offset', 'getThing.d:permuted', 'getThing.e:longest', 'getThing.f:charset', 'getThing.g:gzip', 'getThing.h:uuid'];

export interface FakeMock {
  url: string;
  /** Admin calls received, as `METHOD path`. */
  calls: string[];
  close: () => Promise<void>;
}

/** Half the dimensions, a different half per seed, and always `b` under seeds divisible by 3. */
function dimensionsOf(seed: number): string[] {
  return FAKE_DIMENSIONS.filter((_, index) => (Math.imul(seed + 1, 2654435761 + index * 40503) >>> 7) % 2 === 0 || (index === 1 && seed % 3 === 0));
}

/** `unjournaled`: dimensions the answers vary but the journal does not name (as a run past the journal's size loses them). */
export async function startFakeMock(options: { unjournaled?: readonly string[] } = {}): Promise<FakeMock> {
  let variety: { seed: number; only?: string[] } | null = null;
  const entries: Array<Record<string, unknown>> = [];
  const calls: string[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const send = (status: number, body?: unknown): void => {
        res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' }).end(body === undefined ? undefined : JSON.stringify(body));
      };
      if (url.pathname.startsWith('/__admin')) calls.push(`${req.method} ${url.pathname}`);
      const route = `${req.method} ${url.pathname}`;
      if (route === 'GET /__admin/variety/dimensions') return send(200, { dimensions: FAKE_DIMENSIONS.map((name) => ({ name, description: `varies ${name}` })) });
      if (route === 'PUT /__admin/variety') return ((variety = JSON.parse(text) as typeof variety), send(200, variety));
      if (route === 'DELETE /__admin/variety') return ((variety = null), send(204));
      if (route === 'POST /__admin/reset') return send(200, { status: 'reset', accounts: 0, links: 0 });
      if (route === 'GET /__admin/requests') return send(200, { size: 1000, entries: url.searchParams.has('limit') ? entries.slice(-Number(url.searchParams.get('limit'))) : entries });
      if (route === 'GET /thing') {
        const varied = variety === null ? [] : dimensionsOf(variety.seed).filter((name) => variety?.only?.includes(name) ?? true);
        const body = { varied };
        entries.push({ seq: entries.length + 1, operationId: 'getThing', method: 'GET', path: '/thing', status: 200, responseBody: body, variety: variety === null ? null : { seed: variety.seed, dimensions: varied.filter((name) => !options.unjournaled?.includes(name)) } });
        return send(200, body);
      }
      return send(404, { errorDescription: `no route ${route}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * `node -e` source (script or module) defining `getThing()`: the JSON of GET /thing at MOCK_URL,
 * through node:http. Not fetch: Node 20's fetch compiles its WebAssembly HTTP parser at every start
 * (client-node.ts), and runner.test.ts starts about 200 of these clients (measured: 0.23 s of CPU a
 * run with fetch, 0.08 s with node:http; runner.test went from 24 to 8 s of CPU).
 */
export const GET_THING = `
const getThing = () => import('node:http').then(({ get }) => new Promise((resolve, reject) => {
  get(process.env.MOCK_URL + '/thing', (res) => {
    let text = '';
    res.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve(JSON.parse(text)));
  }).on('error', reject);
}));`;

/** `node --input-type=module -e` source of a client that fails when every one of its arguments is among the varied dimensions. */
export const BRITTLE_CLIENT = `${GET_THING}
const answer = await getThing();
const breaks = process.argv.slice(1);
if (breaks.length > 0 && breaks.every((name) => answer.varied.includes(name))) { console.error('broke on ' + breaks.join(' + ')); process.exit(1); }
console.log('ok');`;
