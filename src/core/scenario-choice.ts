// Which scenario shapes one request, decoded from its headers: `x-mock-scenario: <name>` wins,
// then Prism's `Prefer: code=<status>`, then the global scenario. Decoding is strict: an unknown
// name or an undocumented code is a 400 that says so, never a silent fallback.
import type { Awaitable } from './awaitable.js';
import { preferErrorFor } from './builtin-errors.js';
import { errors } from './errors.js';
import type { ScenarioRegistry } from './scenario-registry.js';
import type { Scenario } from './scenarios.js';

export const SCENARIO_HEADER = 'x-mock-scenario';

export interface ScenarioRequest {
  operationId: string;
  /** Asked only when a Prefer header needs it: most requests never pay for the list. */
  documentedStatuses: () => readonly number[];
  scenarioHeader?: string;
  preferHeader?: string;
  /** The global scenario when it was read already (alongside authentication); else it is read now. */
  global?: Awaitable<Scenario | undefined>;
}

/** At once from the headers; the global scenario only when they ask for none (a read of the shared state). */
export function chooseScenario(registry: ScenarioRegistry, request: ScenarioRequest): Awaitable<Scenario | undefined> {
  if (request.scenarioHeader !== undefined) return registry.get(request.scenarioHeader.trim(), `the ${SCENARIO_HEADER} header`);
  const code = preferredCode(request.preferHeader);
  if (code !== undefined) return preferScenario(code, request);
  return request.global ?? registry.active();
}

/** `Prefer: code=404` (Prism's syntax; other preferences such as dynamic=true are ignored). */
export function preferredCode(prefer: string | undefined): number | undefined {
  if (!prefer) return undefined;
  const match = /(?:^|[,;\s])code=("?)(\w+)\1/i.exec(prefer);
  if (!match) return undefined;
  const code = match[2] ?? '';
  if (!/^\d{3}$/.test(code)) throw errors.invalidRequest(`Prefer: code=${code} is not an HTTP status`);
  return Number(code);
}

function preferScenario(code: number, request: ScenarioRequest): Scenario | undefined {
  const documented = request.documentedStatuses();
  if (!documented.includes(code)) {
    throw errors.invalidRequest(`Prefer: code=${code} is not documented for ${request.operationId}; documented: ${documented.join(', ')}`);
  }
  if (code < 400) return undefined; // a success code asks for the normal, stateful answer
  const respond = preferErrorFor(code) ?? { status: code, body: { errorDescription: `status ${code} forced by the Prefer header` } };
  return { name: `prefer-code-${code}`, description: `Prefer: code=${code}`, source: 'Prefer header', rules: [{ match: { operations: [request.operationId] }, respond }] };
}
