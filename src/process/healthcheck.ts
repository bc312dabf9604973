// The image's HEALTHCHECK (Dockerfile): healthy when the mock answers 200 on GET /__admin/ready (D35)
// at the address it really listens on. Not read from MOCK_PORT/MOCK_HOST/MOCK_ADMIN_TOKEN, which
// flags override (`run IMAGE --port 5000` listens on 5000 with MOCK_PORT still 4010): the
// container's listening sockets say where the mock is, whatever gave its options, and the ready
// route needs no token. No ready file either: a read-only root file system (Kubernetes'
// readOnlyRootFilesystem) has nowhere to write one. Only sockets held by a process this check can
// see are asked: in a container that is the container's own processes (its PID namespace), so with
// `--network host`, where the tables list every listener of the host, another server's 200 (a
// second mock on the host) never counts for this one. Started by healthcheck-main.ts.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { type Listener, listenersOf } from './listening-sockets.js';

/** At most this many listeners are asked (one is expected: the mock; its workers share its socket). */
export const MAX_LISTENERS_ASKED = 8;
/** The whole check settles within this long (the HEALTHCHECK's own --timeout is 5 s). */
export const HEALTHCHECK_DEADLINE_MS = 4_000;

const TABLES: [string, 4 | 6][] = [
  ['/proc/net/tcp', 4],
  ['/proc/net/tcp6', 6],
];

/** Processes whose descriptors are read, at most: a container runs a handful. */
export const MAX_PROCESSES_READ = 256;

/** The listeners of this network namespace held by a process in sight; a table the kernel does not have (no IPv6) is none. */
export function containerListeners(proc = '/proc'): Listener[] {
  const owned = ownedSocketInodes(proc);
  return TABLES.flatMap(([file, family]) => {
    try {
      return listenersOf(readFileSync(file.replace('/proc', proc), 'utf8'), family).filter((listener) => owned.has(listener.inode));
    } catch {
      return [];
    }
  });
}

/** The inodes of the sockets the visible processes hold (`socket:[N]` links in /proc/PID/fd) that this user may read. */
export function ownedSocketInodes(proc = '/proc'): Set<string> {
  const inodes = new Set<string>();
  const pids = readdirSync(proc).filter((name) => /^\d+$/.test(name)).slice(0, MAX_PROCESSES_READ);
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`${proc}/${pid}/fd`);
    } catch {
      continue; // another user's process, or one that has ended
    }
    for (const fd of fds) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`${proc}/${pid}/fd/${fd}`));
        if (match?.[1]) inodes.add(match[1]);
      } catch {
        // closed meanwhile
      }
    }
  }
  return inodes;
}

const urlOf = ({ host, port }: Pick<Listener, 'host' | 'port'>): string => `http://${host.includes(':') ? `[${host}]` : host}:${port}/__admin/ready`;

/** True when one of the listeners (the first MAX_LISTENERS_ASKED, each once) answers 200 within the deadline. */
export async function anyReady(listeners: readonly Pick<Listener, 'host' | 'port'>[], deadlineMs = HEALTHCHECK_DEADLINE_MS): Promise<boolean> {
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
