// Which scenario shapes one request, decoded from its headers, in this order: `x-mock-scenario:
// <name>`, then Prism's `Prefer: code=<status>`, then the scenario set for the request's API key,
// then the global scenario. Decoding is strict: an unknown name or an undocumented code is a 400
// that says so, never a silent fallback; it is the mock refusing its own control (ControlRefused),
// not an answer of the API. A key's own scenario counts its `times` on that key's counters; every
// other choice on the global ones.
import type { Awaitable } from './awaitable.js';
import { preferErrorFor } from './builtin-errors.js';
import { ApiError, ControlRefused } from './errors.js';
import type { ChosenScenario, ScenarioRegistry } from './scenario-registry.js';
import type { Scenario } from './scenarios.js';

export const SCENARIO_HEADER = 'x-mock-scenario';

export interface ScenarioRequest {
  operationId: string;
  /** Asked only when a Prefer header needs it: most requests never pay for the list. */
  documentedStatuses: () => readonly number[];
  scenarioHeader?: string;
  preferHeader?: string;
  /** The request's x-api-key, whose own scenario comes before the global one. */
  apiKey?: string;
}

/** At once from the headers; the key's or global scenario only when they ask for none (a read of the shared state). */
export function chooseScenario(registry: ScenarioRegistry, request: ScenarioRequest): Awaitable<ChosenScenario | undefined> {
  if (request.scenarioHeader !== undefined) return { scenario: namedScenario(registry, request.scenarioHeader) };
  const code = preferredCode(request.preferHeader);
  if (code !== undefined) {
    const forced = preferScenario(code, request);
    return forced && { scenario: forced };
  }
  return registry.activeFor(request.apiKey);
}

/** The scenario x-mock-scenario names; an unknown name is a refusal of the control (the registry's own 400 is also the admin API's). */
function namedScenario(registry: ScenarioRegistry, name: string): Scenario {
  try {
    return registry.get(name.trim(), `the ${SCENARIO_HEADER} header`);
  } catch (error) {
    throw error instanceof ApiError ? new ControlRefused(error.errorDescription) : error;
  }
}

/** `Prefer: code=404` (Prism's syntax; other preferences such as dynamic=true are ignored). */
export function preferredCode(prefer: string | undefined): number | undefined {
  if (!prefer) return undefined;
  const match = /(?:^|[,;\s])code=("?)(\w+)\1/i.exec(prefer);
  if (!match) return undefined;
  const code = match[2] ?? '';
  if (!/^\d{3}$/.test(code)) throw new ControlRefused(`Prefer: code=${code} is not an HTTP status`);
  return Number(code);
}

function preferScenario(code: number, request: ScenarioRequest): Scenario | undefined {
  const documented = request.documentedStatuses();
  if (!documented.includes(code)) {
    throw new ControlRefused(`Prefer: code=${code} is not documented for ${request.operationId}; documented: ${documented.join(', ')}`);
  }
  if (code < 400) return undefined; // a success code asks for the normal, stateful answer
  const respond = preferErrorFor(code) ?? { status: code, body: { errorDescription: `status ${code} forced by the Prefer header` } };
  return { name: `prefer-code-${code}`, description: `Prefer: code=${code}`, source: 'Prefer header', rules: [{ match: { operations: [request.operationId] }, respond }] };
}
