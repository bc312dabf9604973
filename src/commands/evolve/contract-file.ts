// Reading the two contracts evolve compares (NEXT and --from), in ONE place: the loader of
// `--contract FILE` (issue 38) is being written beside this, and this function is meant to be
// swapped for it. Until then it refuses what evolve cannot judge by: a file that cannot be read or
// is over MAX_CONTRACT_BYTES, text that is not YAML/JSON, a document that is not OpenAPI 3.0.x or
// has no paths, and a $ref that leaves the file (a remote or file reference: evolve reads nothing
// but the two files it is given). Every refusal is a ContractFileError with one line.
import type { Contract } from '../../core/contract-types.js';
import { MAX_CONTRACT_BYTES } from '../../contract/contract-limits.js';
import { contractOf } from '../../contract/package-files.js';
import { readFileWithin } from './bounded-read.js';

/** The largest contract read: the same bound as `--contract FILE`'s (src/contract/contract-limits.ts). */
export { MAX_CONTRACT_BYTES };
/** How deep the walk looking for remote $refs goes: far past any real schema. */
const MAX_REF_DEPTH = 200;

export class ContractFileError extends Error {}

/** The contract in `path`, or a ContractFileError naming the file and the reason. */
export function readContractFile(path: string): Contract {
  const text = readBoundedText(path);
  let contract: Contract;
  try {
    contract = contractOf(text);
  } catch (error) {
    throw new ContractFileError(`${path} is not YAML or JSON: ${firstLine(error)}`);
  }
  const document = contract.document as unknown as Record<string, unknown> | null;
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw new ContractFileError(`${path} is not an OpenAPI document (not an object)`);
  const version = document['openapi'];
  if (typeof version !== 'string' || !/^3\.0\.\d+$/.test(version)) throw new ContractFileError(`${path} is not OpenAPI 3.0.x (openapi: ${JSON.stringify(version) ?? 'missing'})`);
  const paths = document['paths'];
  if (typeof paths !== 'object' || paths === null || Array.isArray(paths)) throw new ContractFileError(`${path} has no paths`);
  const remote = remoteRef(document, 0);
  if (remote !== undefined) throw new ContractFileError(`${path} has a $ref outside the file (${remote}): evolve reads the two contract files only`);
  return contract;
}

function readBoundedText(path: string): string {
  try {
    return readFileWithin(path, MAX_CONTRACT_BYTES, 'a contract').toString('utf8');
  } catch (error) {
    throw new ContractFileError((error as Error).message);
  }
}

/** The first $ref that does not start with '#', if any (bounded in depth). */
function remoteRef(node: unknown, depth: number): string | undefined {
  if (typeof node !== 'object' || node === null || depth > MAX_REF_DEPTH) return undefined;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) return value;
    const found = remoteRef(value, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function firstLine(error: unknown): string {
  return ((error as Error).message ?? String(error)).split('\n')[0] ?? '';
}
