// The TCP sockets listening in this network namespace, read from the kernel's own tables
// (/proc/net/tcp and /proc/net/tcp6): what the image's health check asks, since inside the
// mock's container the only listener is the mock, on whatever --host and --port it was given.
// Pure: the tables' text comes in.

export interface Listener {
  /** The address to connect to: the listening one, or its family's loopback for 0.0.0.0 and ::. */
  host: string;
  port: number;
  /** The socket's inode: which process holds it is read from /proc/PID/fd (ownedSocketInodes). */
  inode: string;
}

const LISTEN = '0A';

/** IPv4 in the table: 8 hex digits, the 4 bytes in the host's (little-endian) order. */
function ipv4(hex: string): string {
  const bytes = hex.match(/../g)?.map((byte) => parseInt(byte, 16)) ?? [];
  return bytes.reverse().join('.');
}

/** IPv6 in the table: 4 words of 8 hex digits, each word's bytes in the host's order. */
function ipv6(hex: string): string {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((word) => (word.match(/../g) ?? []).reverse());
  const groups = (bytes.join('').match(/.{4}/g) ?? []).map((group) => parseInt(group, 16).toString(16));
  if (groups.slice(0, 6).join(':') === '0:0:0:0:0:ffff') return ipv4(words[3] ?? ''); // ::ffff:a.b.c.d
  return compressed(groups);
}

/** RFC 5952: the longest run of two or more zero groups as `::`. */
function compressed(groups: string[]): string {
  let best = { at: -1, length: 1 };
  for (let at = 0; at < groups.length; at += 1) {
    let length = 0;
    while (groups[at + length] === '0') length += 1;
    if (length > best.length) best = { at, length };
  }
  if (best.at === -1) return groups.join(':');
  return `${groups.slice(0, best.at).join(':')}::${groups.slice(best.at + best.length).join(':')}`;
}

/** The LISTEN rows of one table (`family` 4: /proc/net/tcp, 6: /proc/net/tcp6), in the table's order. */
export function listenersOf(table: string, family: 4 | 6): Listener[] {
  const found: Listener[] = [];
  for (const line of table.split('\n').slice(1)) {
    const [, local, , state, , , , , , inode = ''] = line.trim().split(/\s+/);
    if (state !== LISTEN || !local?.includes(':')) continue;
    const [address = '', port = ''] = local.split(':');
    const host = family === 4 ? ipv4(address) : ipv6(address);
    found.push({ host: host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host, port: parseInt(port, 16), inode });
  }
  return found;
}
