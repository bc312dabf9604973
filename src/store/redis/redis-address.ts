// Where Redis is, as `--db` names it (D20), turned into node-redis client options:
//   redis://[user:pass@]host:port[/n], rediss://…   TCP (TLS): node-redis reads the URL itself;
//   unix://[user[:pass]@]/abs/path.sock[?db=n]      a Unix socket, for a Redis on the same machine
//                                                   (one that listens on no TCP port, say), in the
//                                                   form go-redis and redis-py read. node-redis
//                                                   takes a socket path but no URL for it.
// WHATWG URL rejects credentials before an empty host, so the socket form is matched here.

/** The part of node-redis's createClient options that says where Redis is and who connects. */
export interface RedisClientAddress {
  url?: string;
  socket?: { path: string };
  database?: number;
  username?: string;
  password?: string;
}

const SOCKET_URL = /^unix:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?(\/[^?#]*)(?:\?([^#]*))?$/i;
/** Redis's databases are numbered from 0; a server is configured with 16 by default. */
const MAX_DATABASE = 1_000_000;

export class RedisAddressError extends Error {
  override name = 'RedisAddressError';
}

export function isRedisSocketUrl(location: string): boolean {
  return /^unix:\/\//i.test(location);
}

/** Throws RedisAddressError (one line saying the form) for a unix:// URL it cannot read. */
export function redisClientAddress(location: string): RedisClientAddress {
  if (!isRedisSocketUrl(location)) return { url: location };
  const match = SOCKET_URL.exec(location);
  if (!match) throw new RedisAddressError('a Unix socket is given as unix:///absolute/path/to/redis.sock, optionally with user:password@ before the path and ?db=N after it');
  const [, username, password, path, query] = match;
  return {
    socket: { path: decode(path as string) },
    ...databaseOf(query),
    ...(username ? { username: decode(username) } : {}),
    ...(password !== undefined && password !== '' ? { password: decode(password) } : {}),
  };
}

function databaseOf(query: string | undefined): { database?: number } {
  const params = new URLSearchParams(query ?? '');
  for (const name of params.keys()) {
    if (name !== 'db') throw new RedisAddressError(`a Unix socket URL takes only ?db=N, not ?${name}=`);
  }
  const db = params.get('db');
  if (db === null) return {};
  if (!/^\d{1,7}$/.test(db) || Number(db) >= MAX_DATABASE) throw new RedisAddressError(`?db= takes a database number, got '${db}'`);
  return { database: Number(db) };
}

/** The error names no part: it may be the password. */
function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new RedisAddressError('its user, password or path is not valid percent-encoding');
  }
}
