// The dimensions a contract has, and the refusal of a name not among them: one list and one
// wording for the admin API (PUT /__admin/variety, switch.ts) and startMock()'s `variety.only` /
// `variety.except` (src/toolkit/variety-option.ts), which checks them before the mock starts.
import type { OpenApiDocument } from '../core/contract-types.js';
import { nearest } from '../core/nearest.js';
import { buildDimensions, type Dimension } from './dimensions.js';
import { nextDimensions } from './next-dimensions.js';

/** The dimensions of `document`; with `from` (today's contract, --variety-from), also what it newly allows against it. */
export function catalogueOf(document: unknown, from?: OpenApiDocument): Dimension[] {
  return [...buildDimensions(document), ...(from ? nextDimensions(from, document as OpenApiDocument) : [])];
}

/** Why the first of `names` not in `known` is refused, with the near miss (`in 'only'`: where it was given); undefined when all are known. */
export function unknownDimension(names: readonly string[], known: readonly string[], where: string): string | undefined {
  const name = names.find((candidate) => !known.includes(candidate));
  if (name === undefined) return undefined;
  const guess = nearest(name, known);
  return `unknown dimension '${name}' in ${where}${guess ? `; did you mean '${guess}'?` : ''} (GET /__admin/variety/dimensions lists them)`;
}
