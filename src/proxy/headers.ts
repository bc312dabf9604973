// Which headers cross the proxy. Everything the client sent goes on (x-api-key included) and
// everything the upstream answered comes back, except what belongs to one connection (RFC 9110
// §7.6.1: hop-by-hop headers) and the mock's own controls, which are answered here and mean
// nothing to the upstream.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { ADMIN_TOKEN_HEADER } from '../admin/admin-token.js';
import { SCENARIO_HEADER } from '../core/scenario-choice.js';
import { VARIETY_HEADER } from '../http/variety.js';

/** The number of contract violations of the exchange, when there are any. */
export const VIOLATIONS_HEADER = 'x-contract-violations';

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'];
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'host', 'content-length', 'content-encoding', 'expect', SCENARIO_HEADER, VARIETY_HEADER, ADMIN_TOKEN_HEADER]);
const NOT_RETURNED = new Set([...HOP_BY_HOP, 'content-length']);

/**
 * The request's headers for the upstream. The body was read (and any content encoding undone) by
 * the proxy, so it goes as plain bytes with their own length; Host names the upstream.
 */
export function upstreamRequestHeaders(headers: IncomingHttpHeaders, upstreamHost: string, body: Buffer | undefined): OutgoingHttpHeaders {
  const connectionScoped = listed(headers['connection']);
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !NOT_FORWARDED.has(name) && !connectionScoped.has(name)) kept[name] = value;
  }
  kept['host'] = upstreamHost;
  if (body && body.length > 0) kept['content-length'] = body.length;
  return kept;
}

/** The upstream's answer headers for the client, without those of the upstream's connection. */
export function clientResponseHeaders(headers: IncomingHttpHeaders): [string, string | string[]][] {
  const connectionScoped = listed(headers['connection']);
  return Object.entries(headers).filter((entry): entry is [string, string | string[]] => entry[1] !== undefined && !NOT_RETURNED.has(entry[0]) && !connectionScoped.has(entry[0]));
}

/** `Connection: close, x-foo` also makes x-foo hop-by-hop. */
function listed(value: string | string[] | undefined): Set<string> {
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(text.split(',').map((name) => name.trim().toLowerCase()).filter(Boolean));
}
