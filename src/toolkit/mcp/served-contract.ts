// The contract the mock serves (GET /openapi.yaml: its --contract FILE, or the shipped openapi.yaml)
// as mock_info and the contract resource tell it. Read from the mock when asked, as every tool
// reads it: the same for the mock of `shortlink-mock mcp`, one driven by --base-url and
// /__admin/mcp, and current after a --watch reload. Not the package's own file: a mock started
// with --contract NEXT serves NEXT.
import { MAX_CONTRACT_BYTES } from '../../contract/contract-limits.js';
import { parseUserContractText } from '../../contract/user-contract.js';
import type { AdminClient } from '../admin-client.js';

/** The most of GET /openapi.yaml read: a contract file's bound, plus its `servers` block rewritten to name the address it was asked at. */
export const SERVED_CONTRACT_BYTES = MAX_CONTRACT_BYTES + 4 * 1024;

export interface ContractInfo {
  title: string;
  version: string;
}

export function servedContractText(client: AdminClient): Promise<string> {
  return client.document('/openapi.yaml', SERVED_CONTRACT_BYTES);
}

/** The last text parsed and its info: mock_info asked again of an unchanged contract parses nothing. */
let last: { text: string; info: ContractInfo } | undefined;

/** The served contract's `info.title` and `info.version`. */
export async function servedContractInfo(client: AdminClient): Promise<ContractInfo> {
  const text = await servedContractText(client);
  if (last?.text !== text) {
    const info = (parseUserContractText(text) as { info?: { title?: unknown; version?: unknown } } | null)?.info ?? {};
    last = { text, info: { title: String(info.title), version: String(info.version) } };
  }
  return last.info;
}
