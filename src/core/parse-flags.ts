// Strict flag parsing with messages a person can act on: lower-case like the CLI's other messages,
// naming the argument at fault, and suggesting the nearest known flag or command for a typo.
// node:util's parseArgs does the parsing; its own messages are only replaced, never its rules.
// Pure, and in the core so that every command parses the one way: the mock's CLI (src/process/config.ts),
// the commands on its admin API (src/toolkit/admin-flags.ts) and `contract` (src/contract/command.ts).
import { parseArgs } from 'node:util';
import { nearest } from './nearest.js';

export interface FlagSpec {
  type: 'string' | 'boolean';
  /** The flag may be given several times. */
  multiple?: boolean;
}

export type FlagValues = Record<string, string | boolean | string[] | undefined>;

export class FlagError extends Error {
  override name = 'FlagError';
}

/**
 * Parses argv strictly (no positionals); a refusal is a FlagError with a one-line message. `hint`
 * ends the messages that point to the help; '' for a command that adds its own pointer to every refusal.
 */
export function parseFlags(argv: readonly string[], flags: Readonly<Record<string, FlagSpec>>, commands: readonly string[] = [], hint = ' (see --help)'): FlagValues {
  const options = Object.fromEntries(Object.entries(flags).map(([name, spec]) => [name, { type: spec.type, multiple: spec.multiple ?? false }]));
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values as FlagValues;
  } catch (error) {
    // Strict parsing says that something is wrong; a lenient pass over the tokens says what.
    const fallback = (error as Error).message.split('\n')[0] ?? 'invalid arguments';
    throw new FlagError(problemIn(argv, flags, commands, hint) ?? fallback.charAt(0).toLowerCase() + fallback.slice(1));
  }
}

function problemIn(argv: readonly string[], flags: Readonly<Record<string, FlagSpec>>, commands: readonly string[], hint: string): string | undefined {
  const { tokens } = parseArgs({ args: [...argv], options: {}, strict: false, allowPositionals: true, tokens: true });
  // Without option specs every flag parses as a boolean: pair a string flag with its value by hand.
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i];
    if (token?.kind === 'positional') return unexpectedArgument(token.value, commands, hint);
    if (token?.kind !== 'option') continue;
    const spec = flags[token.name];
    if (!spec) return unknownFlag(token.rawName, Object.keys(flags), hint);
    if (spec.type === 'boolean' && token.inlineValue) return `${token.rawName} takes no value, got '${argv[token.index] ?? ''}'${hint}`;
    if (spec.type === 'string' && !token.inlineValue) {
      const next = tokens[i + 1];
      if (next?.kind === 'option') return `${token.rawName} needs a value, got the option '${argv[next.index] ?? ''}' (write ${token.rawName}=VALUE if the value starts with '-')`;
      if (next?.kind !== 'positional') return `${token.rawName} needs a value${hint}`;
      i += 1; // that positional is this flag's value
    }
  }
  return undefined;
}

function unknownFlag(rawName: string, known: readonly string[], hint: string): string {
  const guess = rawName.startsWith('--') ? nearest(rawName.slice(2), known) : undefined;
  return `unknown option '${rawName}'${guess ? `; did you mean --${guess}?` : ''}${hint}`;
}

function unexpectedArgument(value: string, commands: readonly string[], hint: string): string {
  const guess = nearest(value, commands);
  if (guess) return `unexpected argument '${value}'; did you mean the command '${guess}'?${hint}`;
  return `unexpected argument '${value}': this command takes options only${hint}`;
}
