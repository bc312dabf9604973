// The replay of one recorded exchange: a curl against a mock started with `--contract NEXT` at
// the default address. The journal masks API keys, so the key is $API_KEY, to be set by whoever
// replays; a scenario that shaped the answer is asked for again with x-mock-scenario.
import { DEFAULT_BASE_URL } from '../../toolkit/admin-flags.js';
import type { Exchange } from './exchanges.js';

/** A replayed body longer than this is cut (the report stays bounded); the journal keeps 4 KiB at most anyway. */
export const MAX_REPLAY_BODY_CHARS = 4096;

// A row's replay is made for every distinct finding (thousands in a large journal): no regular expression when there is no quote to escape.
const quoted = (text: string): string => `'${text.includes("'") ? text.replace(/'/g, `'\\''`) : text}'`;

export function replayCommand(exchange: Exchange): string {
  const parts = ['curl', '-sS', '-i', '-X', exchange.method, quoted(`${DEFAULT_BASE_URL}${exchange.path}`)];
  const names = Object.keys(exchange.headers);
  for (const name of names.length > 1 ? names.sort() : names) {
    if (name === 'content-type') continue;
    // Masked by the journal (or a credential in a pact): the replayer gives the real one.
    const value = name === 'x-api-key' || name === 'authorization' ? '$API_KEY' : exchange.headers[name] ?? '';
    parts.push('-H', name === 'x-api-key' || name === 'authorization' ? `"${name}: ${value}"` : quoted(`${name}: ${value}`));
  }
  if (exchange.scenario !== null) parts.push('-H', quoted(`x-mock-scenario: ${exchange.scenario}`));
  if (exchange.requestBody !== undefined) {
    const body = JSON.stringify(exchange.requestBody) ?? '';
    parts.push('-H', quoted('content-type: application/json'), '--data', quoted(body.length > MAX_REPLAY_BODY_CHARS ? `${body.slice(0, MAX_REPLAY_BODY_CHARS)}…(cut)` : body));
  }
  return parts.join(' ');
}
