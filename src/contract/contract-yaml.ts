// A contract's YAML text → its document. The contracts are parsed with js-yaml's core schema: the
// same documents as `yaml`'s parse (test/process/contract-parse.test.ts), in about a tenth of the
// CPU at a cold start (admin and API documents: ~30 ms against ~200 ms), when no code of either
// parser is warm yet.
// The package's own two documents (openapi.yaml, src/admin/openapi.yaml) are not parsed at a
// start: their values are kept, as JSON, under the SHA-256 of their text (parsed-contracts.ts,
// written by `npm run gen:contracts` with this same parse), so the same text gives the same
// document, and any other text (an edited contract, a user's file) is parsed by js-yaml. Why:
// measured by process.cpuUsage after the server's modules are loaded, as in the CLI, js-yaml took
// 6-8 ms for openapi.yaml and 13-24 ms for the admin document at every cold start; with the table,
// readContract + readAdminContract take 5-6 ms (loading parsed-contracts.ts ~2.5 ms of it).
import { createRequire } from 'node:module';
import { PARSED_CONTRACTS } from './parsed-contracts.js';
import { textDigest } from './text-digest.js';

const require = createRequire(import.meta.url);

export function parseContractYaml(text: string): unknown {
  const known = PARSED_CONTRACTS[textDigest(text)];
  return known === undefined ? loadWithJsYaml(text) : JSON.parse(known);
}

/** The parse itself, also the one `npm run gen:contracts` keeps the values of. */
export function loadWithJsYaml(text: string): unknown {
  // js-yaml's CommonJS build, not its ES module: the validator's $ref parser loads that build at
  // every start anyway, so a contract is parsed by the same copy and its 4,000-line ES module is
  // never compiled (~10 ms of a cold start's CPU).
  const jsYaml = require('js-yaml') as typeof import('js-yaml');
  return jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA });
}
