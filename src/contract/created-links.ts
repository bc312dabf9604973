// Everything the suite creates, it deletes: this watches every exchange, remembers each link a
// create answered with (whatever the status: a broken server may say 200), forgets each one a
// delete removed, and deletes what is left at the end, each with the key that created it.
import type { Outcome } from './check-types.js';
import { jsonBody, type ContractClient, type Exchange, API_KEY_HEADER } from './client.js';

const LINKS_PATH = '/links';

export interface CleanupResult {
  deleted: string[];
  /** Each link that could not be deleted, with the answer (or the lack of one) that says why. */
  leftBehind: { id: string; why: string }[];
}

export class CreatedLinks {
  /** id → API key of the account that owns it. */
  private readonly links = new Map<string, string | undefined>();

  observe(exchange: Exchange): void {
    if (exchange.status < 200 || exchange.status > 299) return;
    if (exchange.method === 'POST' && exchange.path === LINKS_PATH) {
      const id = (jsonBody(exchange) as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string' && id.length > 0) this.links.set(id, exchange.requestHeaders[API_KEY_HEADER]);
    } else if (exchange.method === 'DELETE' && exchange.path.startsWith(`${LINKS_PATH}/`)) {
      this.links.delete(decodeURIComponent(exchange.path.slice(LINKS_PATH.length + 1)));
    }
  }

  get size(): number {
    return this.links.size;
  }

  async cleanup(client: ContractClient): Promise<CleanupResult> {
    const result: CleanupResult = { deleted: [], leftBehind: [] };
    for (const [id, apiKey] of [...this.links]) {
      const exchange = await client.send({ method: 'DELETE', path: `${LINKS_PATH}/${encodeURIComponent(id)}`, apiKey });
      // observe() has already forgotten it when the delete worked; a 404 means it is gone anyway.
      if ((exchange.status >= 200 && exchange.status <= 299) || exchange.status === 404) {
        this.links.delete(id);
        result.deleted.push(id);
      } else {
        result.leftBehind.push({ id, why: exchange.networkError ?? `DELETE answered ${exchange.status}` });
      }
    }
    return result;
  }
}

/**
 * The clean-up as a sentence. `deleted` counts only what the checks had not deleted themselves (a
 * lifecycle check deletes its own link), so it is never called "the links the checks created".
 */
export function describeCleanup({ deleted, leftBehind }: CleanupResult): Outcome {
  const links = (count: number): string => (count === 1 ? 'link' : 'links');
  if (leftBehind.length > 0) {
    const total = deleted.length + leftBehind.length;
    const which = leftBehind.map(({ id, why }) => `${id} (${why})`).join(', ');
    const count = deleted.length === 0 ? 'the' : `${leftBehind.length} of the`;
    return { status: 'failed', reason: `Could not delete ${count} ${total} ${links(total)} the checks left behind: ${which}.` };
  }
  if (deleted.length === 0) return { status: 'passed', note: 'The checks left no links behind.' };
  return { status: 'passed', note: `Deleted the ${deleted.length} ${links(deleted.length)} the checks left behind.` };
}
