// Reading a checkPact result in tests: the checked result or a thrown refusal, its errors as rows,
// the messages of one interaction; and a V3 fixture rewritten as V2.
import { checkPact, type CheckOptions, type PactCheck } from '../../src/pact/check.js';
import { readContract } from '../../src/contract/package-files.js';
import type { PactJson } from './pact-fixtures.js';

export type Checked = Extract<PactCheck, { kind: 'checked' }>;

export const contract = readContract();

export async function checked(json: unknown, options: CheckOptions = {}): Promise<Checked> {
  const result = await checkPact(json, contract, options);
  if (result.kind !== 'checked') throw new Error(`refused: ${result.reason}`);
  return result;
}

/** Every error, as [interaction description, side, field, engine]. */
export const errors = (check: Checked): string[][] =>
  check.interactions.flatMap((result) => result.findings.filter((finding) => finding.severity === 'error').map((finding) => [result.description, finding.side, finding.field, finding.engine]));

export const message = (check: Checked, description: string): string =>
  check.interactions.find((result) => result.description === description)?.findings.map((finding) => finding.message).join(' | ') ?? '';

/** A V3 pact rewritten as V2: a providerState, V2 matchingRules. */
export function asV2(pact: PactJson): PactJson {
  pact['metadata'] = { pactSpecification: { version: '2.0.0' } };
  for (const interaction of pact['interactions']) {
    interaction.providerState = interaction.providerStates?.[0]?.name;
    delete interaction.providerStates;
    interaction.response.matchingRules = { '$.body.id': { match: 'type' } };
  }
  return pact;
}
