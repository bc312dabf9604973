// Exchanges in words a person can paste: the request as a curl command, the answer as status,
// content type and body. The suite's own API keys are written as $CONTRACT_API_KEY,
// $CONTRACT_OTHER_API_KEY and $CONTRACT_LIMITED_API_KEY, so a report can go into a CI log or a bug report without leaking a
// real key, and the curl still runs where those variables are set.
import type { Exchange } from './client.js';

const BODY_LIMIT = 2000;

/** Real key → the shell variable that stands for it. */
export type Secrets = ReadonlyMap<string, string>;

export function secretsOf(keys: { apiKey: string; otherApiKey?: string | undefined; limitedApiKey?: string | undefined }): Secrets {
  const secrets = new Map<string, string>([[keys.apiKey, '$CONTRACT_API_KEY']]);
  if (keys.otherApiKey) secrets.set(keys.otherApiKey, '$CONTRACT_OTHER_API_KEY');
  if (keys.limitedApiKey) secrets.set(keys.limitedApiKey, '$CONTRACT_LIMITED_API_KEY');
  return secrets;
}

export function toCurl(exchange: Exchange, secrets: Secrets = new Map()): string {
  const parts = ['curl -sS -i', '-X', exchange.method, quote(exchange.url)];
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    const secret = secrets.get(value);
    parts.push('-H', secret ? `"${name}: ${secret}"` : quote(`${name}: ${value}`));
  }
  if (exchange.requestBody !== undefined) parts.push('--data-raw', quote(exchange.requestBody));
  return parts.join(' ');
}

export function describeResponse(exchange: Exchange): string {
  if (exchange.networkError) return exchange.networkError;
  const head = `${exchange.status} ${exchange.contentType ?? '(no content type)'}`;
  if (exchange.bodyText.length === 0) return `${head} (no body)`;
  const body = exchange.bodyText.length > BODY_LIMIT ? `${exchange.bodyText.slice(0, BODY_LIMIT)}... (${exchange.bodyText.length} bytes)` : exchange.bodyText;
  return `${head}\n${body}`;
}

/** Request and response, as lines ready to be indented under a failure. */
export function describeExchange(exchange: Exchange, secrets: Secrets = new Map()): string[] {
  return [`request:  ${toCurl(exchange, secrets)}`, ...describeResponse(exchange).split('\n').map((line, index) => (index === 0 ? `response: ${line}` : `          ${line}`))];
}

/** Single-quoted for a POSIX shell: a ' inside becomes '\''. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
