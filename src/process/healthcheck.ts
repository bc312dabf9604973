// The image's HEALTHCHECK (Dockerfile): healthy when the mock answers 200 on GET /__admin/ready (D35)
// at the address it really listens on. Not read from MOCK_PORT/MOCK_HOST/MOCK_ADMIN_TOKEN, which
// flags override (`run IMAGE --port 5000` listens on 5000 with MOCK_PORT still 4010): the
// container's listening sockets say where the mock is, whatever gave its options, and the ready
// route needs no token. No ready file either: a read-only root file system (Kubernetes'
// readOnlyRootFilesystem) has nowhere to write one. Started by healthcheck-main.ts.
import { readFileSync } from 'node:fs';
import { type Listener, listenersOf } from './listening-sockets.js';

/** At most this many listeners are asked (one is expected: the mock; its workers share its socket). */
export const MAX_LISTENERS_ASKED = 8;
/** The whole check settles within this long (the HEALTHCHECK's own --timeout is 5 s). */
export const HEALTHCHECK_DEADLINE_MS = 4_000;

const TABLES: [string, 4 | 6][] = [
  ['/proc/net/tcp', 4],
  ['/proc/net/tcp6', 6],
];

/** The listeners of this network namespace; a table the kernel does not have (no IPv6) is none. */
export function containerListeners(): Listener[] {
  return TABLES.flatMap(([file, family]) => {
    try {
      return listenersOf(readFileSync(file, 'utf8'), family);
    } catch {
      return [];
    }
  });
}

const urlOf = ({ host, port }: Listener): string => `http://${host.includes(':') ? `[${host}]` : host}:${port}/__admin/ready`;

/** True when one of the listeners (the first MAX_LISTENERS_ASKED, each once) answers 200 within the deadline. */
export async function anyReady(listeners: readonly Listener[], deadlineMs = HEALTHCHECK_DEADLINE_MS): Promise<boolean> {
  const signal = AbortSignal.timeout(deadlineMs);
  const urls = [...new Set(listeners.map(urlOf))].slice(0, MAX_LISTENERS_ASKED);
  for (const url of urls) {
    try {
      const res = await fetch(url, { signal });
      await res.body?.cancel();
      if (res.status === 200) return true;
    } catch {
      if (signal.aborted) return false;
    }
  }
  return false;
}
