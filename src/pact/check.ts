// `pact check`: every interaction of a consumer's pact (Pact specification V2, V3 or V4; HTTP
// interactions) judged against openapi.yaml. Pure: the pact's JSON and the contract in, results out.
//
// Two engines, each where it is the better judge (every finding names the one that made it):
//  - swagger-mock-validator (PactFlow's engine behind their hosted bi-directional contract testing,
//    engine.ts): the response status is documented for the operation (so createLink 409 or
//    deleteLink 200 are refused); the response body against that status's schema, Error objects
//    and their `code` enum included: a field the schema lacks is refused, a required field the
//    pact leaves out is not (Pact bodies are partial: a provider that answers more than the pact
//    lists passes verification); response headers and content type; request content type and
//    Accept; headers and query parameters the contract does not define (notes, not failures).
//    It validates the example values and ignores matchingRules, which is what a matcher means:
//    the example stands for its type.
//  - shortlink-mock's own validators (own-checks.ts: ResponseChecker, the mock's Ajv over
//    openapi.yaml, and its OperationTable), where the engine falls short for this contract: the
//    path and method name an operation (the engine takes /links/ for /links, which the API answers
//    404), the x-api-key header and the request body on every expected status (the engine checks
//    both only below 400, and does not name an unexpected request field), an Error `code` only
//    where the contract shows it (LINK_LIMIT_REACHED is a createLink 400, D5), and V4
//    interactions that are not HTTP (the engine skips them silently).
// The engine is an optional dependency (engine.ts says why). Without it the mock's own checks take
// its part for every HTTP interaction (own-response-checks.ts: the status, the body with the same
// partial-body reading, the response's JSON content type), and the result says so (engineMissing):
// what it alone checks (response headers, the request's Content-Type and Accept, query parameters
// and headers the contract does not define) is then named as not checked, never passed in silence.
// The file itself is read by pact-file.ts, which refuses other versions and malformed files.
import type { Contract } from '../core/contract-types.js';
import { EngineMissing, EngineRefusal, engineFindings } from './engine.js';
import type { Finding } from './finding.js';
import { OwnChecks } from './own-checks.js';
import { PactFileError, readPactFile, type PactFile, type PactInteraction } from './pact-file.js';

export interface InteractionResult {
  index: number;
  description: string;
  /** e.g. 'POST /links → 201', or the V4 type of an interaction that is not HTTP. */
  exchange: string;
  operationId?: string;
  /** Errors and warnings, request side first. */
  findings: Finding[];
  /** No finding of severity 'error'. */
  passed: boolean;
}

export type PactCheck =
  /** The pact file is not one this check reads. */
  | { kind: 'refused'; reason: string }
  /** The contract cannot be compiled or read by an engine. */
  | { kind: 'contract-refused'; reason: string }
  | {
      kind: 'checked';
      consumer: string;
      provider: string;
      version: number;
      contractTitle: string;
      interactions: InteractionResult[];
      /** Findings the engine placed on no interaction of the file (none expected; never dropped). */
      unplaced: Finding[];
      /** Why swagger-mock-validator was not used, when it could not be loaded: own checks took its part. */
      engineMissing?: string;
      passed: boolean;
    };

export interface CheckOptions {
  /** The module (file URL) swagger-mock-validator is resolved from; tests name a place without it. */
  engineFrom?: string;
}

const SIDES = ['interaction', 'request', 'response'];

/** pactJson: the pact file's content, parsed from JSON. */
export async function checkPact(pactJson: unknown, contract: Contract, options: CheckOptions = {}): Promise<PactCheck> {
  let pact: PactFile;
  try {
    pact = readPactFile(pactJson);
  } catch (error) {
    if (error instanceof PactFileError) return { kind: 'refused', reason: error.message };
    throw error;
  }
  const judged = await judge(pact, contract, options);
  if ('kind' in judged) return judged;
  const { own, findings, engineMissing } = judged;
  const interactions = pact.interactions.map((interaction): InteractionResult => {
    const mine = findings.filter((finding) => finding.index === interaction.index).sort((a, b) => SIDES.indexOf(a.side) - SIDES.indexOf(b.side));
    const operationId = interaction.kind === 'http' ? own.operationOf(interaction) : undefined;
    return {
      index: interaction.index,
      description: interaction.description,
      exchange: exchangeOf(interaction),
      ...(operationId ? { operationId } : {}),
      findings: mine,
      passed: mine.every((finding) => finding.severity !== 'error'),
    };
  });
  const unplaced = findings.filter((finding) => !pact.interactions.some((interaction) => interaction.index === finding.index));
  const info = contract.document['info'] as { title?: string; version?: string } | undefined;
  return {
    kind: 'checked',
    consumer: pact.consumer,
    provider: pact.provider,
    version: pact.version,
    contractTitle: `${info?.title ?? 'API'} ${info?.version ?? ''}`.trim(),
    interactions,
    unplaced,
    ...(engineMissing === undefined ? {} : { engineMissing }),
    passed: interactions.every((result) => result.passed) && unplaced.every((finding) => finding.severity !== 'error'),
  };
}

type Judged = { own: OwnChecks; findings: Finding[]; engineMissing?: string };

/** Both engines' findings, or why the contract (or, for the engine, the pact) cannot be used. */
async function judge(pact: PactFile, contract: Contract, options: CheckOptions): Promise<Judged | Extract<PactCheck, { kind: 'refused' | 'contract-refused' }>> {
  let own: OwnChecks;
  try {
    own = new OwnChecks(contract);
  } catch (error) {
    return { kind: 'contract-refused', reason: `the mock's validators cannot compile it: ${(error as Error).message}` };
  }
  const mine = pact.interactions.flatMap((interaction) => own.findings(interaction));
  try {
    const bounded = { ...pact, interactions: pact.interactions.map((interaction) => own.forEngine(interaction)) };
    return { own, findings: [...(await engineFindings(bounded, contract.text, options.engineFrom)), ...mine] };
  } catch (error) {
    if (error instanceof EngineMissing) {
      return { own, findings: [...pact.interactions.flatMap((interaction) => own.standIn(interaction)), ...mine], engineMissing: error.message };
    }
    if (!(error instanceof EngineRefusal)) throw error;
    return { kind: error.input === 'pact' ? 'refused' : 'contract-refused', reason: error.message };
  }
}

function exchangeOf(interaction: PactInteraction): string {
  if (interaction.kind === 'other') return interaction.type;
  return `${interaction.request.method} ${interaction.request.path} → ${interaction.response.status}`;
}
