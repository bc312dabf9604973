// The workloads of `bench:compare`, each a round against one running server: what it prepares
// (unmeasured) and the autocannon options it measures. Every round starts from the seeded state
// (POST /__admin/reset), so the side that answered faster is not slowed by the larger store it made.
// delete measures a fixed number of deletes of links created just before (unmeasured), sized from
// the side's previous delete rate, so no round runs out of links to delete, and timed by its answers.
import autocannon from 'autocannon';

const HEADERS = { 'x-api-key': 'demo-key', 'content-type': 'application/json' };
const CREATE_BODY = JSON.stringify({ destinationUrl: 'https://example.com/bench', domain: 'short.test', tags: [{ name: 'bench' }] });
const UPDATE_BODY = JSON.stringify({ destinationUrl: 'https://example.com/bench-updated', tags: [] });
const CREATE = { method: 'POST', path: '/links', headers: HEADERS, body: CREATE_BODY };
const MIN_DELETES = 2_000;
const MAX_DELETES = 200_000;

export const COMPARE_WORKLOADS = ['create', 'update', 'delete', 'mixed'];

const run = (options) => new Promise((resolve, reject) => autocannon(options, (error, result) => (error ? reject(error) : resolve(result))));

async function reset(server) {
  if (server.kind !== 'mock') return;
  const response = await fetch(`${server.url}/__admin/reset`, { method: 'POST' });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`POST ${server.url}/__admin/reset answered ${response.status}`);
}

async function createOne(server) {
  const response = await fetch(`${server.url}/links`, { method: 'POST', headers: HEADERS, body: CREATE_BODY });
  const body = await response.json();
  if (response.status !== 201) throw new Error(`the set-up create answered ${response.status}: ${JSON.stringify(body)}`);
  return body.id;
}

/** Creates `count` links as fast as the server takes them; their ids. */
async function createMany(server, count, connections) {
  const ids = [];
  const request = { ...CREATE, onResponse: (status, body) => void (status === 201 && ids.push(JSON.parse(body).id)) };
  await run({ url: server.url, connections, amount: count, requests: [request], timeout: 10 });
  if (ids.length < count) throw new Error(`only ${ids.length} of ${count} set-up creates answered 201`);
  return ids;
}

/** Autocannon options for one measured round of `name` on `server`; memory: the side's last rates. */
export async function prepareRound(name, server, { durationSec, connections }, memory) {
  await reset(server);
  const base = { url: server.url, connections, timeout: 10 };
  if (name === 'create') return { options: { ...base, duration: durationSec, requests: [CREATE] }, expected: [201] };
  if (name === 'update') {
    const id = await createOne(server);
    return { options: { ...base, duration: durationSec, requests: [{ method: 'PUT', path: `/links/${id}`, headers: HEADERS, body: UPDATE_BODY }] }, expected: [200] };
  }
  if (name === 'delete') {
    const count = Math.min(MAX_DELETES, Math.max(MIN_DELETES, Math.round((memory.deleteRate ?? 0) * durationSec)));
    const ids = await createMany(server, count, connections);
    let next = 0;
    // autocannon ends a run of `amount` requests at its next one-second tick, and its duration says
    // so: 2,000 deletes in 0.4 s read as 2,000 in 1.01 s, and both sides' rounds as the same rate.
    // The round's time is taken here instead: from the start to the last answer.
    const clock = { startedAt: 0, lastAnswerAt: 0 };
    const request = {
      method: 'DELETE',
      headers: { 'x-api-key': 'demo-key' },
      setupRequest: (req) => ({ ...req, path: `/links/${ids[next++]}` }),
      onResponse: () => void (clock.lastAnswerAt = performance.now()),
    };
    const elapsedSec = () => (clock.lastAnswerAt - clock.startedAt) / 1000;
    return { options: { ...base, amount: count, requests: [request] }, expected: [204], start: () => void (clock.startedAt = performance.now()), elapsedSec };
  }
  if (name === 'mixed') {
    const requests = [
      { ...CREATE, onResponse: (status, body, context) => void (context.id = status === 201 ? JSON.parse(body).id : 'lnk_createFailed0000') },
      { method: 'PUT', headers: HEADERS, body: UPDATE_BODY, setupRequest: (req, context) => ({ ...req, path: `/links/${context.id}` }) },
      { method: 'DELETE', headers: { 'x-api-key': 'demo-key' }, setupRequest: (req, context) => ({ ...req, path: `/links/${context.id}` }) },
    ];
    return { options: { ...base, duration: durationSec, requests }, expected: [201, 200, 204] };
  }
  throw new Error(`unknown workload '${name}': one of ${COMPARE_WORKLOADS.join(', ')}`);
}

/** One measured round: throughput, latency, and whether every answer had an expected status. */
export async function measureRound(name, server, settings, memory) {
  const { options, expected, start, elapsedSec } = await prepareRound(name, server, settings, memory);
  start?.();
  const result = await run(options);
  const statuses = Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [Number(code), Number(count)]);
  const unexpected = statuses.filter(([code]) => !expected.includes(code)).map(([code, count]) => `${count}× status ${code}`);
  const problems = [...unexpected, ...(result.errors ? [`${result.errors} errors (${result.timeouts} timeouts)`] : [])];
  const reqPerSec = result.requests.total / (elapsedSec ? elapsedSec() : result.duration);
  if (name === 'delete') memory.deleteRate = reqPerSec;
  return { reqPerSec, p50: result.latency.p50, p99: result.latency.p99, problems };
}
