// What `contract` says after a failed run about the target's global scenario: the note when the
// target is our mock with one on, and nothing at all from any other answer to GET /__admin/health.
import type { RequestListener } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, startInProcessMock, type Listening } from '../../contract-tests/servers.js';
import { activeScenarioNote, NOTE_PROBE_LIMIT_MS } from '../../src/contract/scenario-note.js';
import { runnableMsOf } from '../helpers/own-time.js';

const TIMEOUT_MS = 10_000;

let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server whose only route is the health one, answering as given. */
function healthServer(status: number, contentType: string, body: string): RequestListener {
  return (req, res) => {
    if (req.url === '/__admin/health') res.writeHead(status, { 'content-type': contentType }).end(body);
    else res.writeHead(404).end();
  };
}

const json = (value: unknown): string => JSON.stringify(value);

describe('activeScenarioNote', () => {
  it("names the mock's global scenario and how to turn it off", async () => {
    server = await startInProcessMock({ scenario: 'not-found' });
    expect(await activeScenarioNote(server.url, TIMEOUT_MS)).toBe(
      `note: the mock at ${server.url} has the global scenario 'not-found' on (GET /__admin/health); its forced answers fail these checks. ` +
        'Turn it off with PUT /__admin/scenario {"name": null} or the console.',
    );
  });

  it('says nothing about a mock with no scenario on', async () => {
    server = await startInProcessMock();
    expect(await activeScenarioNote(server.url, TIMEOUT_MS)).toBeUndefined();
  });

  it('says nothing about a mock with an admin token (its health route answers 401 without it)', async () => {
    server = await startInProcessMock({ scenario: 'not-found', adminToken: 'secret-token' });
    const health = await fetch(`${server.url}/__admin/health`);
    expect(health.status).toBe(401);
    expect(await activeScenarioNote(server.url, TIMEOUT_MS)).toBeUndefined();
  });

  it.each([
    ['no such route', healthServer(404, 'application/json', json({ errorDescription: 'not found' }))],
    ['a 401', healthServer(401, 'application/json', json({ status: 'ok', scenario: 'not-found' }))],
    ['HTML', healthServer(200, 'text/html', '<html>ok</html>')],
    ['JSON of another shape', healthServer(200, 'application/json', json({ healthy: true, scenario: 'not-found' }))],
    ['a scenario that is not a name', healthServer(200, 'application/json', json({ status: 'ok', scenario: 'x\u001b[2J' }))],
    ['a scenario that is no string', healthServer(200, 'application/json', json({ status: 'ok', scenario: { name: 'x' } }))],
  ])('says nothing about a server whose health answer is %s', async (_name, app) => {
    server = await listen(app);
    expect(await activeScenarioNote(server.url, TIMEOUT_MS)).toBeUndefined();
  });

  it('says nothing about a server with no answer at all, and gives up within its own bound', async () => {
    server = await listen(() => {}); // never answers
    // The run's request bound is far longer: the probe must not wait it out. Timed while this
    // process could run: a loaded machine's wall clock also counts the time it had no CPU.
    const { outcome, ms } = await runnableMsOf(() => activeScenarioNote(server!.url, 600_000));
    expect(outcome).toEqual({ status: 'fulfilled', value: undefined });
    expect(ms).toBeLessThan(NOTE_PROBE_LIMIT_MS + 2_000);
  });
});
