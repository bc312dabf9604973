// The cases of a contract FILE (issue 38), derived from the mock's classification of FILE against
// the shipped contract (src/core/contract-classes.ts): its new request and Link fields, the reads it
// adds, the other operations it adds. Run after the shipped contract's CHECKS.
import { fieldChecks } from './cases-next-fields.js';
import { readChecks } from './cases-next-reads.js';
import type { Check } from './check-types.js';
import type { NextContract } from './next-contract.js';

export function nextChecks(next: NextContract): Check[] {
  return [...fieldChecks(next), ...readChecks(next)];
}
