// After a run with failures: is the target our mock with a global scenario on? Every check then
// gets the scenario's forced answer and fails, and the report alone does not say why. The mock's
// health route names the active scenario; any other server (no such route, 401 without the admin
// token, not JSON, no answer) gets no note at all, so the probe can never add noise of its own.
import { ContractClient, jsonBody } from './client.js';

const HEALTH_PATH = '/__admin/health';
/** The probe is an afterthought to the report: it must not hold up a run for long. */
export const NOTE_PROBE_LIMIT_MS = 3_000;
/** A name as scenarios/scenario.schema.json allows it; anything else is not our mock's answer (and is not printed). */
const SCENARIO_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** The line to print before the summary, or undefined when there is nothing to say. */
export async function activeScenarioNote(baseUrl: string, timeoutMs: number): Promise<string | undefined> {
  const client = new ContractClient(baseUrl, { timeoutMs: Math.min(timeoutMs, NOTE_PROBE_LIMIT_MS) });
  const exchange = await client.send({ method: 'GET', path: HEALTH_PATH });
  if (exchange.status !== 200) return undefined;
  const health = jsonBody(exchange) as { status?: unknown; scenario?: unknown } | undefined;
  if (health?.status !== 'ok' || typeof health.scenario !== 'string' || !SCENARIO_NAME.test(health.scenario)) return undefined;
  return (
    `note: the mock at ${client.baseUrl} has the global scenario '${health.scenario}' on (GET ${HEALTH_PATH}); its forced answers fail these checks. ` +
    'Turn it off with PUT /__admin/scenario {"name": null} or the console.'
  );
}
