// Whether the server under test answers at all, asked with one plain request before the suite
// runs: an unreachable server is one reason (the CLI's line, check_contract's tool error), not a
// failure per check with a cleanup check that passes because there was nothing to clean.
import { ContractClient } from './client.js';

/** Why nothing answered at `baseUrl` (`connect ECONNREFUSED 127.0.0.1:9`, a timeout), or undefined when something did. */
export async function whyUnreachable(baseUrl: string, timeoutMs?: number): Promise<string | undefined> {
  const probe = await new ContractClient(baseUrl, timeoutMs === undefined ? {} : { timeoutMs }).send({ method: 'GET', path: '/' });
  return probe.networkError;
}
