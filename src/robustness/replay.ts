// The line that replays one seed, written to be pasted into a POSIX shell as it is: the flags that
// chose the mock and the key, and the client's command with each word quoted as the shell needs.
import { DEFAULT_TIMEOUT_S, type RobustnessOptions } from './options.js';

/** What a replay repeats of the run that found the failure. */
export interface Replay {
  /** The client's command, word by word (as after `--`). */
  command: readonly string[];
  /** --base-url, --api-key and --timeout as they were given (never the admin token: a secret for MOCK_ADMIN_TOKEN). */
  flags: readonly string[];
}

export function replayOf(options: RobustnessOptions): Replay {
  const flags = [
    ...(options.baseUrl === undefined ? [] : ['--base-url', options.baseUrl]),
    ...(options.contract === undefined ? [] : ['--contract', options.contract.next, ...(options.contract.from === undefined ? [] : ['--from', options.contract.from])]),
    ...(options.apiKey === undefined ? [] : ['--api-key', options.apiKey]),
    // A run stopped at a shorter bound fails the same way only under the same bound.
    ...(options.timeoutMs === DEFAULT_TIMEOUT_S * 1000 ? [] : ['--timeout', String(options.timeoutMs / 1000)]),
  ];
  return { command: options.command, flags };
}

/** `shortlink-mock robustness --runs 1 --seed S … -- <the command>`. */
export function replayLine(seed: number, replay: Replay): string {
  return ['shortlink-mock', 'robustness', '--runs', '1', '--seed', String(seed), ...replay.flags, '--', ...replay.command].map(shellWord).join(' ');
}

/** A word as a POSIX shell reads it back: bare when it holds nothing the shell treats specially, else in single quotes ('\'' for a quote). */
export function shellWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
