// Issue 13, item 6: faults of a mock shared on Redis, with real processes. Three instances on one
// redis-server of the test's own (appendonly yes + appendfsync always), a create load spread over
// them round-robin, every answer counted from the client side:
// - kill -9 of one instance mid-load: every link any client was answered 201 for is in Redis,
//   read through the survivors; the survivors never failed a request;
// - Redis killed mid-load and started again, and Redis not answering (SIGSTOP, then SIGCONT) (D25):
//   meanwhile every API request is the documented 500 `store unavailable: …` within 2 s and health
//   is 503 naming Redis; within 5 s of Redis being back every instance answers normally by itself;
//   no acknowledged link is lost (D23) and no place under the link limit leaks (D22).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { sharedRedisUrl } from '../helpers/shared-redis.js';
import { DEMO, jsonHeaders, listLinks, startServer, stopAll, type Server } from './helpers.js';

const INSTANCES = 3;
/** D25: an API request answers within 2 s while Redis is away. */
const ANSWER_LIMIT_MS = 2_000;
/** A request is aborted after this, so a hung socket is a counted failure, never a hung test. */
const REQUEST_LIMIT_MS = 5_000;
/** Redis stays away at least this long: longer than the answer bound, so that a request waiting for it would show. */
const OUTAGE_MIN_MS = 2_500;
/** Within this of Redis being back, every instance answers normally again. */
const RECOVERY_LIMIT_MS = 5_000;

const started: Server[] = [];
let redis: RedisServer | undefined;
let dir: string;
let prefixes = 0;

beforeAll(async () => {
  sharedRedisUrl(); // fails with the Redis set-up's words when redis-server is missing
  redis = await startRedis({ persistence: 'aof' });
  dir = mkdtempSync(join(tmpdir(), 'slm-redis-faults-'));
});
afterEach(() => stopAll(started));
afterAll(async () => {
  await stopAll(started);
  await redis?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Three instances on a fresh prefix of the test's Redis, started together. */
function startInstances(): Promise<Server[]> {
  const args = ['--db', redis!.url, '--redis-prefix', `faults-${process.pid}-${++prefixes}:`, '--quiet'];
  return Promise.all(Array.from({ length: INSTANCES }, () => startServer(args, dir, started)));
}

// ---------------------------------------------------------------------------------------------
// A create load spread round-robin over several instances, one record per request.

interface Shot {
  instance: number;
  slug: string;
  /** performance.now() when it was sent and when its answer (or failure) came. */
  sentAt: number;
  endedAt: number;
  /** The HTTP status, or the failure: 'timeout' or the socket error's code. */
  outcome: number | string;
  body?: { id?: string; errorDescription?: string };
}

interface SpreadLoad {
  shots: Shot[];
  /** Every link answered 201: id → slug. */
  acked: Map<string, string>;
  inFlight: (instance: number) => number;
  /** No request is sent to this instance from now on. */
  leaveOut: (instance: number) => void;
  /** Resolves once `holds()`, checked now and after each answer; rejects after `limitMs`. */
  when: (holds: () => boolean, limitMs: number, what: string) => Promise<void>;
  /** Resolves once `condition(shot)` has held for `count` finished requests; rejects after `limitMs`. */
  whenSeen: (count: number, condition: (shot: Shot) => boolean, limitMs: number, what: string) => Promise<void>;
  stop: () => void;
  done: Promise<void>;
}

function spreadLoad(urls: string[], options: { loops: number; maxMs: number; label: string }): SpreadLoad {
  const shots: Shot[] = [];
  const acked = new Map<string, string>();
  const inFlight = urls.map(() => 0);
  const leftOut = new Set<number>();
  const watchers: Array<() => void> = [];
  const deadline = performance.now() + options.maxMs;
  let stopped = false;
  let next = 0;

  const nextInstance = (): number | undefined => {
    for (let tries = 0; tries < urls.length; tries += 1) {
      const instance = next++ % urls.length;
      if (!leftOut.has(instance)) return instance;
    }
    return undefined;
  };
  const loop = async (index: number): Promise<void> => {
    for (let n = 0; !stopped && performance.now() < deadline; n += 1) {
      const instance = nextInstance();
      if (instance === undefined) return;
      const slug = `${options.label}-${index}-${n}`;
      const shot: Shot = { instance, slug, sentAt: performance.now(), endedAt: 0, outcome: 0 };
      inFlight[instance]! += 1;
      try {
        const res = await fetch(`${urls[instance]}/links`, {
          method: 'POST',
          headers: jsonHeaders(),
          body: JSON.stringify({ destinationUrl: `https://example.com/${slug}`, domain: 'short.test', tags: [], slug }),
          signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
        });
        shot.outcome = res.status;
        shot.body = (await res.json()) as Shot['body'];
        if (res.status === 201 && shot.body?.id) acked.set(shot.body.id, slug);
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        shot.outcome = (error as Error).name === 'TimeoutError' ? 'timeout' : (cause?.code ?? (error as Error).message);
      } finally {
        inFlight[instance]! -= 1;
        shot.endedAt = performance.now();
        shots.push(shot);
        for (const watcher of [...watchers]) watcher();
      }
      // Pacing, not synchronisation: a mock answering 500s at once must not turn into a busy loop.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const when = (holds: () => boolean, limitMs: number, what: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (!holds()) return;
        finish();
        resolve();
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`${what}: not seen within ${limitMs} ms (${shots.length} requests answered)`));
      }, limitMs);
      const finish = (): void => {
        clearTimeout(timer);
        watchers.splice(watchers.indexOf(check), 1);
      };
      watchers.push(check);
      check();
    });
  return {
    shots,
    acked,
    inFlight: (instance) => inFlight[instance]!,
    leaveOut: (instance) => void leftOut.add(instance),
    when,
    whenSeen: (count, condition, limitMs, what) => when(() => shots.filter(condition).length >= count, limitMs, what),
    stop: () => {
      stopped = true;
    },
    done: Promise.all(Array.from({ length: options.loops }, (_, index) => loop(index))).then(() => undefined),
  };
}

const countBy = (shots: Shot[]): Record<string, number> => {
  const counted: Record<string, number> = {};
  for (const { outcome } of shots) counted[String(outcome)] = (counted[String(outcome)] ?? 0) + 1;
  return counted;
};

/** The acknowledged links missing from what `url` lists for the demo account. */
async function missingThrough(url: string, acked: Map<string, string>): Promise<string[]> {
  const links = await listLinks(url, DEMO);
  return [...acked].filter(([id, slug]) => links.get(id)?.slug !== slug).map(([id]) => id);
}

/** The demo account as GET /__admin/accounts shows it through `url`. */
async function demoAccount(url: string): Promise<{ linkLimit: number; links: number }> {
  const res = await fetch(`${url}/__admin/accounts`, { signal: AbortSignal.timeout(REQUEST_LIMIT_MS) });
  const { accounts } = (await res.json()) as { accounts: { apiKey: string; linkLimit: number; links: number }[] };
  return accounts.find((account) => account.apiKey === DEMO)!;
}

/**
 * Gives the demo account room for exactly `room` more links, then sends three times as many
 * creates at once, spread over `urls`: how many were answered 201, by status. A place under the
 * limit that a refused or failed create kept would show as fewer 201s.
 */
async function fillRoom(urls: string[], room: number): Promise<Record<string, number>> {
  const { links } = await demoAccount(urls[0]!);
  const raised = await fetch(`${urls[0]}/__admin/accounts/${DEMO}/limit`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ linkLimit: links + room }),
    signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
  });
  expect(raised.status).toBe(200);
  const answers = await Promise.all(
    Array.from({ length: room * 3 }, (_, i) =>
      fetch(`${urls[i % urls.length]}/links`, {
        method: 'POST',
        headers: jsonHeaders(),
        body: JSON.stringify({ destinationUrl: 'https://example.com/room', domain: 'short.test', tags: [] }),
        signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
      }).then(async (res) => `${res.status}${res.status === 400 ? ` ${((await res.json()) as { code?: string }).code}` : ''}`),
    ),
  );
  const counted: Record<string, number> = {};
  for (const answer of answers) counted[answer] = (counted[answer] ?? 0) + 1;
  return counted;
}

// ---------------------------------------------------------------------------------------------

describe('three instances on one Redis', () => {
  it('kill -9 of one instance during a create load: every 201 is in Redis, read through the survivors', async () => {
    const servers = await startInstances();
    const urls = servers.map((server) => server.url);
    const load = spreadLoad(urls, { loops: 9, maxMs: 3_000, label: 'kill9' });
    let inFlightAtKill: number;
    try {
      // Mid-load: the victim has answered 30 creates and has at least two requests in flight.
      const answeredByVictim = (): number => load.shots.filter((shot) => shot.instance === 1 && shot.outcome === 201).length;
      await load.when(() => answeredByVictim() >= 30 && load.inFlight(1) >= 2, 10_000, 'the instance to kill with 30 creates answered and 2 in flight');
      inFlightAtKill = load.inFlight(1);
      load.leaveOut(1);
      expect((await servers[1]!.signal('SIGKILL')).signal).toBe('SIGKILL');
    } finally {
      await load.done; // bounded by its maxMs
    }
    const { shots, acked } = load;
    // The survivors answered every request 201; the victim 201 until the kill, then socket errors.
    expect(countBy(shots.filter((shot) => shot.instance !== 1))).toEqual({ 201: shots.filter((shot) => shot.instance !== 1).length });
    const victim = shots.filter((shot) => shot.instance === 1 && shot.outcome !== 201);
    expect(victim.filter((shot) => typeof shot.outcome === 'number')).toEqual([]);
    expect(victim.length).toBeLessThanOrEqual(inFlightAtKill);

    expect(await missingThrough(urls[0]!, acked), 'acknowledged links missing, read through instance 0').toEqual([]);
    expect(await missingThrough(urls[2]!, acked), 'acknowledged links missing, read through instance 2').toEqual([]);
    // Creates the victim wrote but never answered may or may not be there: at most one per request in flight.
    let listed = await listLinks(urls[0]!, DEMO);
    const unacknowledged = [...listed.values()].filter((link) => link.slug.startsWith('kill9-') && !acked.has(link.id));
    expect(unacknowledged.length).toBeLessThanOrEqual(inFlightAtKill);
    // A slug whose create died with the victim is free again, unless its link was stored.
    const listedSlugs = new Set([...listed.values()].map((link) => link.slug));
    const retaken = await Promise.all(
      victim
        .filter((shot) => !listedSlugs.has(shot.slug))
        .map((shot) =>
          fetch(`${urls[0]}/links`, {
            method: 'POST',
            headers: jsonHeaders(),
            body: JSON.stringify({ destinationUrl: 'https://example.com/retaken', domain: 'short.test', tags: [], slug: shot.slug }),
            signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
          }).then((res) => res.status),
        ),
    );
    expect(retaken.filter((status) => status !== 201)).toEqual([]);
    listed = await listLinks(urls[0]!, DEMO);
    // The account's count of links is the links there are, through both survivors.
    for (const url of [urls[0]!, urls[2]!]) expect((await demoAccount(url)).links).toBe(listed.size);
    // Each acknowledged link still answers its own DELETE through a survivor, once.
    const sample = [...acked.keys()].slice(0, 20);
    const deletes = await Promise.all(sample.map((id, i) => fetch(`${urls[i % 2 === 0 ? 0 : 2]}/links/${id}`, { method: 'DELETE', headers: jsonHeaders(), signal: AbortSignal.timeout(REQUEST_LIMIT_MS) })));
    expect(deletes.map((res) => res.status)).toEqual(Array(sample.length).fill(204));

    const perInstance = [0, 1, 2].map((i) => shots.filter((shot) => shot.instance === i && shot.outcome === 201).length);
    console.log(
      `[redis-faults] kill -9 of 1 of 3 instances: ${acked.size} acknowledged (${perInstance.join('/')} per instance), all found through both survivors; ` +
        `${inFlightAtKill} in flight on the victim at the kill, ${victim.length} of them failed (${JSON.stringify(countBy(victim))}), ${unacknowledged.length} written unanswered, ${retaken.length} slugs taken again`,
    );
  });

  it('Redis killed (kill -9) mid-load and started again: 500 store unavailable within 2 s and a 503 health meanwhile, normal again within 5 s, nothing acknowledged lost', async () => {
    await outageRound({ name: 'kill -9 and restart', label: 'redis-killed', goAway: () => redis!.kill9(), comeBack: () => redis!.restart() });
  });

  it('Redis not answering (SIGSTOP) mid-load, then going on (SIGCONT): the same', async () => {
    const pid = redis!.pid;
    let stopped = false;
    try {
      await outageRound({
        name: 'SIGSTOP and SIGCONT',
        label: 'redis-stopped',
        goAway: async () => {
          process.kill(pid, 'SIGSTOP');
          stopped = true;
        },
        comeBack: async () => {
          process.kill(pid, 'SIGCONT');
          stopped = false;
        },
      });
    } finally {
      if (stopped) process.kill(pid, 'SIGCONT');
    }
  });
});

/**
 * One outage of Redis in the middle of a create load spread over three instances: `goAway` at a
 * moment when creates are being answered, `comeBack` once a request sent 2.5 s after that has been
 * answered, then every D25 and D23 check. Says what it saw in one line.
 */
async function outageRound(outage: { name: string; label: string; goAway: () => Promise<void>; comeBack: () => Promise<void> }): Promise<void> {
  const servers = await startInstances();
  const urls = servers.map((server) => server.url);
  // A link the PUT and DELETE sent while Redis is away aim at: not counted as acknowledged by the
  // load, since a DELETE answered 500 while Redis does not answer may still be done once it does.
  const target = await fetch(`${urls[0]}/links`, { method: 'POST', headers: jsonHeaders(), body: JSON.stringify({ destinationUrl: 'https://example.com/target', domain: 'short.test', tags: [] }) });
  expect(target.status).toBe(201);
  const targetId = ((await target.json()) as { id: string }).id;
  const load = spreadLoad(urls, { loops: 6, maxMs: 30_000, label: outage.label });
  let awayAt = 0;
  let comeBackAt = 0;
  let backAt = 0;
  let healthyAt = 0;
  const duringOutage: Array<{ what: string; ms: number; status: number; body: { errorDescription?: string; status?: string; reason?: string } }> = [];
  const recoveredMs: number[] = [];
  try {
    await load.whenSeen(30, (shot) => shot.outcome === 201, 10_000, 'creates before Redis is killed');
    await outage.goAway();
    awayAt = performance.now();
    // Redis stays away until a request sent more than ANSWER_LIMIT_MS after the kill is answered:
    // a request that waited for Redis to come back instead of answering would show as slow.
    await load.whenSeen(1, (shot) => shot.sentAt >= awayAt + OUTAGE_MIN_MS, OUTAGE_MIN_MS + 10_000, 'answers while Redis is away');
    // Through each instance at once: an update, a delete and the health check.
    const requests = urls.flatMap((url, i): Array<[string, string, RequestInit]> => [
      [`PUT on ${i}`, `${url}/links/${targetId}`, { method: 'PUT', headers: jsonHeaders(), body: JSON.stringify({ destinationUrl: 'https://example.com/while-down' }) }],
      [`DELETE on ${i}`, `${url}/links/${targetId}`, { method: 'DELETE', headers: jsonHeaders() }],
      [`health of ${i}`, `${url}/__admin/health`, { method: 'GET' }],
    ]);
    await Promise.all(
      requests.map(async ([what, address, init]) => {
        const sent = performance.now();
        const res = await fetch(address, { ...init, signal: AbortSignal.timeout(REQUEST_LIMIT_MS) });
        duringOutage.push({ what, ms: performance.now() - sent, status: res.status, body: (await res.json()) as (typeof duringOutage)[number]['body'] });
      }),
    );
    comeBackAt = performance.now();
    await outage.comeBack();
    backAt = performance.now();
    // Each instance answers its health 200 again, by itself, within the bound.
    for (const url of urls) {
      const status = await eventually(() => fetch(`${url}/__admin/health`, { signal: AbortSignal.timeout(REQUEST_LIMIT_MS) }).then((res) => res.status), (got) => got === 200, RECOVERY_LIMIT_MS);
      expect(status).toBe(200);
      recoveredMs.push(performance.now() - backAt);
    }
    healthyAt = performance.now();
    // And the load is answered 201 again through every instance.
    await load.whenSeen(INSTANCES * 10, (shot) => shot.sentAt >= healthyAt && shot.outcome === 201, RECOVERY_LIMIT_MS, 'creates answered once every instance is healthy');
  } finally {
    load.stop();
    await load.done;
  }
  const { shots, acked } = load;

  // No request hung or lost its socket: each got an answer within 2 s, 201 or the documented 500.
  expect(countBy(shots.filter((shot) => shot.outcome !== 201 && shot.outcome !== 500))).toEqual({});
  const took = (shot: Shot): number => shot.endedAt - shot.sentAt;
  expect(shots.filter((shot) => took(shot) >= ANSWER_LIMIT_MS).map((shot) => `${shot.outcome} after ${Math.round(took(shot))} ms`)).toEqual([]);
  const refused = shots.filter((shot) => shot.outcome === 500);
  expect(refused.filter((shot) => !/^store unavailable: /.test(shot.body?.errorDescription ?? ''))).toEqual([]);
  // Sent and answered wholly while Redis was away: every one refused, on every instance.
  const whileAway = shots.filter((shot) => shot.sentAt >= awayAt && shot.endedAt <= comeBackAt);
  expect(countBy(whileAway)).toEqual({ 500: whileAway.length });
  expect(new Set(whileAway.map((shot) => shot.instance)).size).toBe(INSTANCES);
  for (const answer of duringOutage) {
    expect(answer.ms, answer.what).toBeLessThan(ANSWER_LIMIT_MS);
    if (answer.what.startsWith('health')) {
      expect(answer.status, answer.what).toBe(503);
      expect(answer.body).toMatchObject({ status: 'unavailable', reason: expect.stringContaining('Redis') });
    } else {
      expect(answer.status, answer.what).toBe(500);
      expect(answer.body.errorDescription).toMatch(/^store unavailable: /);
    }
  }
  // Sent once every instance said it was healthy again: answered normally, by all three.
  const afterRecovery = shots.filter((shot) => shot.sentAt >= healthyAt);
  expect(countBy(afterRecovery)).toEqual({ 201: afterRecovery.length });
  expect(new Set(afterRecovery.map((shot) => shot.instance)).size).toBe(INSTANCES);
  // Each instance answered a create 201 again within 5 s of Redis being back.
  const firstAgain = [0, 1, 2].map((i) => Math.min(...shots.filter((shot) => shot.instance === i && shot.sentAt >= backAt && shot.outcome === 201).map((shot) => shot.endedAt - backAt)));
  expect(firstAgain.every((ms) => ms < RECOVERY_LIMIT_MS), `first 201 after Redis was back: ${firstAgain.join('/')} ms`).toBe(true);

  // Acknowledged before, during the edges of, and after the outage: all of it is there (appendfsync always).
  expect(await missingThrough(urls[0]!, acked), `acknowledged links missing after Redis ${outage.name}`).toEqual([]);
  expect(await missingThrough(urls[2]!, acked), `acknowledged links missing after Redis ${outage.name}`).toEqual([]);
  // The count of links is the links there are, and no place under the limit leaked in the outage
  // (a create refused with its claims unknown gives them back once Redis answers again).
  expect((await demoAccount(urls[1]!)).links).toBe((await listLinks(urls[1]!, DEMO)).size);
  expect(await fillRoom(urls, 10)).toEqual({ 201: 10, '400 LINK_LIMIT_REACHED': 20 });

  const slowest = Math.round(Math.max(...refused.map(took), ...duringOutage.map((answer) => answer.ms)));
  console.log(
    `[redis-faults] Redis ${outage.name}: ${acked.size} acknowledged, all kept; ${shots.length} requests, slowest ${Math.round(Math.max(...shots.map(took)))} ms; ${refused.length} answered 500 store unavailable ` +
      `(${whileAway.length} wholly while away), slowest refusal ${slowest} ms; Redis away ${Math.round(comeBackAt - awayAt)} ms, coming back took ${Math.round(backAt - comeBackAt)} ms; ` +
      `health 200 again ${recoveredMs.map((ms) => Math.round(ms)).join('/')} ms and a 201 again ${firstAgain.map((ms) => Math.round(ms)).join('/')} ms after Redis was back`,
  );
}
