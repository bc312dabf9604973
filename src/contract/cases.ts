// Every check of the suite, as data, in the order they run: the operations status by status, then
// the stateful rules, isolation between accounts, the link limit. The vitest suite and the CLI
// command both take this one list.
import { CREATE_CHECKS } from './cases-create.js';
import { ISOLATION_CHECKS } from './cases-isolation.js';
import { LIMIT_CHECKS } from './cases-limit.js';
import { RULE_CHECKS } from './cases-rules.js';
import { UPDATE_DELETE_CHECKS } from './cases-update-delete.js';
import type { Check } from './check-types.js';

export const CHECKS: readonly Check[] = [...CREATE_CHECKS, ...UPDATE_DELETE_CHECKS, ...RULE_CHECKS, ...ISOLATION_CHECKS, ...LIMIT_CHECKS];

const duplicate = CHECKS.map((check) => check.id).find((id, index, ids) => ids.indexOf(id) !== index);
if (duplicate) throw new Error(`two contract checks share the id '${duplicate}'`);
