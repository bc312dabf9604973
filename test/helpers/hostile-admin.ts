// A server that pretends to be a mock's admin API and answers what a real one never would: bodies
// past what a route can hold, bodies of another shape, redirects elsewhere. For the tests of the
// admin client and of the commands that read a running mock (coverage, drift, pact export,
// robustness --base-url). Listens on port 0; every stream it sends is bounded in count.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A JSON answer; `repeat`: `head`, then `item` joined by commas `count` times, then `tail`. */
export type HostileAnswer =
  | { status?: number; headers?: Record<string, string>; body?: string }
  | { status?: number; head: string; item: string; count: number; tail: string };

export interface HostileServer {
  url: string;
  /** Each request as `METHOD path?query`, with the admin token it carried. */
  readonly seen: Array<{ request: string; token: string | undefined }>;
  /** Bytes written in all (a client that stops reading stops this early). */
  written(): number;
  close(): Promise<void>;
}

/** The item filler's chunk: items are written in groups, so a stream costs few writes. */
const ITEMS_PER_WRITE = 4_096;

export async function hostileAdmin(answer: (req: IncomingMessage) => HostileAnswer): Promise<HostileServer> {
  const seen: HostileServer['seen'] = [];
  let written = 0;
  const server: Server = createServer((req, res) => {
    const token = req.headers['x-admin-token'];
    seen.push({ request: `${req.method} ${req.url}`, token: typeof token === 'string' ? token : undefined });
    const chosen = answer(req);
    res.on('close', () => res.destroy());
    if ('item' in chosen) return void stream(res, chosen, (bytes) => (written += bytes));
    res.writeHead(chosen.status ?? 200, { 'content-type': 'application/json', ...chosen.headers });
    written += Buffer.byteLength(chosen.body ?? '');
    res.end(chosen.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    written: () => written,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Writes head, count items, tail, waiting for the client to drain; stops when it leaves. */
function stream(res: ServerResponse, answer: Extract<HostileAnswer, { item: string }>, count: (bytes: number) => void): void {
  res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
  const group = Array.from({ length: ITEMS_PER_WRITE }, () => answer.item).join(',');
  let left = answer.count;
  let first = true;
  const write = (text: string): boolean => (count(Buffer.byteLength(text)), res.write(text));
  const more = (): void => {
    while (left > 0 && !res.destroyed) {
      const items = Math.min(left, ITEMS_PER_WRITE);
      left -= items;
      const text = (first ? answer.head : ',') + (items === ITEMS_PER_WRITE ? group : group.slice(0, items * (answer.item.length + 1) - 1));
      first = false;
      if (!write(text)) return void res.once('drain', more);
    }
    if (!res.destroyed) res.end((first ? answer.head : '') + answer.tail);
  };
  more();
}

/** Items of `item` that make a stream of at least `bytes` bytes. */
export const itemsFor = (bytes: number, item: string): number => Math.ceil(bytes / (item.length + 1));
