// Reading the two contracts evolve compares (NEXT and --from) with the loader of `--contract FILE`
// (src/contract/user-contract.ts): the same refusals of a file that is missing, not a regular file
// (a FIFO is refused, not waited on) or over MAX_CONTRACT_BYTES, of text that is not YAML/JSON or
// nested past MAX_CONTRACT_DEPTH, and of a $ref that is not local or names nothing. Evolve adds
// only what it cannot judge by: a document that is not OpenAPI 3.0.x (its diff rules and the
// checker's Ajv are 3.0's). The OpenAPI meta-schema is not checked: a NEXT evolve can compile is
// judged, even one the mock would refuse to serve. Every refusal is a ContractFileError with one
// line naming the file.
import type { Contract, OpenApiDocument } from '../../core/contract-types.js';
import { MAX_CONTRACT_BYTES } from '../../contract/contract-limits.js';
import { contractReferenceProblem } from '../../contract/contract-references.js';
import { PARSED_CONTRACTS } from '../../contract/parsed-contracts.js';
import { textDigest } from '../../contract/text-digest.js';
import { ContractFileError, openApiProblem, parseUserContractText, readUserContractText } from '../../contract/user-contract.js';

/** The largest contract read: the same bound as `--contract FILE`'s (src/contract/contract-limits.ts). */
export { ContractFileError, MAX_CONTRACT_BYTES };

/** The contract in `path`, or a ContractFileError naming the file and the reason. */
export function readContractFile(path: string): Contract {
  let text: string;
  try {
    text = readUserContractText(path);
  } catch (error) {
    throw new ContractFileError(`cannot read ${path}: ${(error as Error).message}`);
  }
  const known = PARSED_CONTRACTS[textDigest(text)];
  // The package's own contract (its text, wherever it lies) is taken as it is, as the mock takes it.
  if (known !== undefined) return { text, document: JSON.parse(known) as OpenApiDocument };
  const document = named(path, () => parseUserContractText(text));
  const problem = structureProblem(document) ?? contractReferenceProblem(document, text);
  if (problem !== undefined) throw new ContractFileError(`${path}: ${problem}`);
  return { text, document: document as OpenApiDocument };
}

/** The loader's refusal of a document the mock does not serve, then evolve's: 3.0 only. */
function structureProblem(document: unknown): string | undefined {
  const problem = openApiProblem(document);
  if (problem !== undefined) return problem;
  const { openapi } = document as { openapi: string };
  return /^3\.0\.\d+$/.test(openapi) ? undefined : `OpenAPI ${openapi} is not judged: evolve reads OpenAPI 3.0.x (its diff rules and validators are 3.0's)`;
}

function named<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ContractFileError) throw new ContractFileError(`${path}: ${error.message}`);
    throw error;
  }
}
