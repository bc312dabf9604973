// Checks of one option's value, each refusal a one-line ConfigError that names where the value
// came from (the flag or the environment variable the user set), never a flag they did not pass.
import type { Config, Durability, GivenOptions } from './config-types.js';
import { DEFAULT_PROXY_CONCURRENCY, MAX_PROXY_CONCURRENCY } from '../proxy/exchange-slots.js';
import { maskQueryValues } from '../core/printable.js';
import { prefixCollision } from '../store/redis/redis-keys.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function isTruthy(source: string, value: string): boolean {
  if (value === '' || value === '0' || value.toLowerCase() === 'false') return false;
  if (value === '1' || value.toLowerCase() === 'true') return true;
  throw new ConfigError(`${source}: expected true/false or 1/0, got '${value}'`);
}

export function durability(source: string, value: string | undefined): Durability {
  if (value === undefined || value === 'durable' || value === 'relaxed') return value ?? 'durable';
  throw new ConfigError(`${source} must be 'durable' or 'relaxed', got '${value}'`);
}

/** A bare host name, as it shows in a Host header without its port: no scheme, port or path. */
export function allowedHost(source: string, value: string): string {
  if (!/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(value)) {
    throw new ConfigError(`${source} takes a host name such as 'dev.example.test' (no scheme, port or path), got '${value}'`);
  }
  return value.toLowerCase();
}

/**
 * A browser sends `Origin: scheme://host[:port]`, lower-case, without a path or a default port, and
 * CORS compares it as a string: an origin written any other way would never match, silently.
 */
export function corsOrigin(source: string, value: string): string {
  if (value === '*') return value;
  if (!value.includes('://')) {
    throw new ConfigError(`${source}: '${value}' has no scheme, so it can never match a browser's Origin (scheme://host[:port]); write 'https://${value}' or 'http://${value}'`);
  }
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const origin = url && (url.origin === 'null' ? `${url.protocol}//${url.host}` : url.origin);
  if (origin !== value) {
    const fix = origin && url?.host ? `; write '${origin}'` : '';
    throw new ConfigError(`${source}: '${value}' can never match a browser's Origin, which is exactly scheme://host[:port] (lower-case, no path, no default port)${fix}`);
  }
  return value;
}

export function nonEmpty(source: string, value: string): string {
  if (value.trim() === '') throw new ConfigError(`${source} must not be empty`);
  return value;
}

/** A whole number given as text (the CLI) or as a number (startMock()), checked the same way. */
export function integer(source: string, value: string | number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    throw new ConfigError(`${source} must be a whole number from ${min} to ${max}, got '${value}'`);
  }
  return parsed;
}

/** `--db redis://…`, `rediss://…` (D20) or `unix://…` (a socket): state shared through Redis; anything else is a file or :memory:. */
export function isRedisUrl(db: string): boolean {
  return /^(?:rediss?|unix):\/\//i.test(db);
}

/**
 * `--db`: a value that starts with a Redis scheme is a Redis URL or nothing. `redis:`, `redis:/host`
 * or `rediss:host` is a mistyped URL, never meant as a file name: taken as a path it would start a
 * mock of its own on a file of that name, silently not the shared state the user asked for.
 */
export function dbLocation(source: string, value: string): string {
  const scheme = /^(rediss?|unix):/i.exec(value)?.[0];
  if (scheme === undefined || isRedisUrl(value)) return value;
  // Printed to CI logs: anything up to an '@' may be a password.
  const at = value.lastIndexOf('@');
  const shown = at < 0 ? value : `${scheme}***${value.slice(at)}`;
  throw new ConfigError(`${source}: '${shown}' is not a Redis URL; a Redis URL is redis://[user:pass@]host:port[/n] (rediss:// for TLS, unix:///path/redis.sock[?db=n] for a Unix socket), and a db file's path does not start with '${scheme}'`);
}

export const MAX_WORKERS = 64;

/** `--workers N|auto` (D26): 'auto' is one per CPU, decided by the CLI where the machine is known. */
export function workers(source: string, value: string | undefined): number | 'auto' {
  if (value?.trim().toLowerCase() === 'auto') return 'auto';
  return integer(source, value, 1, 1, MAX_WORKERS);
}

/** A Redis key prefix: printable, no spaces (it is typed into redis-cli by people debugging). */
export function redisPrefix(source: string, value: string): string {
  if (!/^[\x21-\x7e]{1,100}$/.test(value)) throw new ConfigError(`${source} takes up to 100 printable characters without spaces, such as 'shortlink-mock:', got '${value}'`);
  const collision = prefixCollision(value);
  if (collision) throw new ConfigError(`${source} ${collision}`);
  return value;
}

/** `--proxy URL`: an http(s) URL with a host; its path, if any, is put before every forwarded path. */
export function proxyUrl(source: string, value: string): URL {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  // A refusal goes to CI logs: printed back with no credential, query value or fragment in clear.
  const shown = shownProxyUrl(value);
  if (!url || !/^https?:$/.test(url.protocol) || !url.host) {
    throw new ConfigError(`${source} takes the upstream's base URL, such as 'https://staging.example.com' or 'http://127.0.0.1:8080/api', got '${shown}'`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`${source}: '${shown}' has a query, fragment or credentials; give only scheme://host[:port][/path] (the client's own headers, x-api-key included, are forwarded)`);
  }
  return url;
}

/** The URL with its user name, password, every query value and its fragment masked; names and the rest as given. */
function shownProxyUrl(value: string): string {
  const hash = value.indexOf('#');
  // Not parsed: the text as given (a parser would rewrite it); all before the host's last '@' masked.
  const shown = maskQueryValues((hash < 0 ? value : value.slice(0, hash)).replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@'));
  return hash < 0 ? shown : `${shown}#***`;
}

export const MAX_PROXY_TIMEOUT_MS = 10 * 60_000;

/**
 * `--proxy-timeout 10s`, `500ms` or `2500`: a duration in milliseconds. A bare number is in `bare`
 * units: milliseconds for --proxy-timeout (as it always was), seconds for the server's timeouts.
 */
export function duration(source: string, value: string | number | undefined, fallbackMs: number, bare: 'ms' | 's' = 'ms'): number {
  if (value === undefined) return fallbackMs;
  // A number (startMock()) is in `bare` units, as a bare number of the CLI is.
  const match = typeof value === 'number' ? undefined : /^(\d+(?:\.\d+)?)\s*(ms|s)?$/i.exec(value.trim());
  const [amount, unit] = typeof value === 'number' ? [value, bare] : match ? [Number(match[1]), match[2]?.toLowerCase() ?? bare] : [Number.NaN, bare];
  const ms = Math.round(amount * (unit === 's' ? 1000 : 1));
  if (!Number.isFinite(ms) || ms < 1 || ms > MAX_PROXY_TIMEOUT_MS) {
    const example = bare === 's' ? "'10' (seconds), '10s' or '500ms'" : "'10s', '500ms' or '2500' (milliseconds)";
    throw new ConfigError(`${source} takes a duration from 1ms to 600s, such as ${example}, got '${value}'`);
  }
  return ms;
}

export const DEFAULT_PROXY_TIMEOUT_MS = 10_000;

/** --proxy and the options that only mean something with it (given alone, they are refused, never ignored). */
export function proxyOptions({ text, scalar, bool, source, refer }: GivenOptions): Pick<Config, 'proxy' | 'proxyStrict' | 'proxyTimeoutMs' | 'proxyConcurrency'> {
  const url = text('proxy');
  const strict = bool('proxy-strict');
  const timeout = scalar('proxy-timeout');
  const concurrency = scalar('proxy-concurrency');
  if (url === undefined && (strict || timeout !== undefined || concurrency !== undefined)) {
    const given = source(strict ? 'proxy-strict' : timeout !== undefined ? 'proxy-timeout' : 'proxy-concurrency');
    throw new ConfigError(`${given} only applies with ${refer(given, 'proxy', '<url>')}`);
  }
  return {
    ...(url === undefined ? {} : { proxy: proxyUrl(source('proxy'), url) }),
    proxyStrict: strict,
    proxyTimeoutMs: duration(source('proxy-timeout'), timeout, DEFAULT_PROXY_TIMEOUT_MS),
    proxyConcurrency: integer(source('proxy-concurrency'), concurrency, DEFAULT_PROXY_CONCURRENCY, 1, MAX_PROXY_CONCURRENCY),
  };
}

/**
 * --variety SEED. Variety varies the mock's own answers; with --proxy the answers are the
 * upstream's, so the two together are refused rather than one of them doing nothing.
 */
export function varietyOption({ text, scalar, source }: GivenOptions): Pick<Config, 'variety'> {
  const seed = scalar('variety');
  if (seed === undefined) return {};
  if (text('proxy') !== undefined) throw new ConfigError(`${source('variety')} only applies without ${source('proxy')}: variety varies the mock's own answers, and with ${source('proxy')} the answers are the upstream's`);
  return { variety: integer(source('variety'), seed, 0, 0, Number.MAX_SAFE_INTEGER) };
}
