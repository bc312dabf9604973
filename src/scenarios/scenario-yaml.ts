// A scenario file's YAML text → its value, as `yaml`'s parse gives it. The package's own scenario
// files are not parsed at a start: their values are kept, as JSON, under the SHA-256 of their text
// (parsed-built-ins.ts, written by `npm run gen:scenarios` with this same parse), so the same text
// gives the same value, and any other text (a user's file, an edited one) is parsed by `yaml`. Why:
// loading `yaml` (72 modules) and parsing the built-in files was ~100 ms of each cold start's CPU,
// and every start loads the built-in layer. `yaml` is still the only parser: it is loaded on
// the first text the table does not know.
import { createRequire } from 'node:module';
import { textDigest } from '../contract/text-digest.js';
import { PARSED_BUILT_INS } from './parsed-built-ins.js';

const require = createRequire(import.meta.url);

export function parseScenarioYaml(text: string): unknown {
  const known = PARSED_BUILT_INS[textDigest(text)];
  return known === undefined ? (require('yaml') as typeof import('yaml')).parse(text) : JSON.parse(known);
}
