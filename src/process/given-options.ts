// The options a mock was given, as the one check of each value reads them (configFrom in
// config.ts, the checks in option-values.ts and server-options.ts), whoever gave them: the CLI's
// flags and environment (text, `--port 80`, `MOCK_PORT=80`) or startMock()'s typed options
// (`{ port: 80 }`, src/toolkit/start-options.ts). A refusal names the option as its giver wrote it.
import type { GivenOptions } from './config-types.js';
import { ConfigError, isTruthy, nonEmpty } from './option-values.js';

/** One option's value as given: text from argv or the environment, typed from startMock(). */
export type GivenValue = string | number | boolean | readonly string[];

/** What a giver supplies: the values by flag name, and how it names an option. */
export interface OptionSource {
  /** The value given for the option of `flag`; undefined when it was not given. */
  value(flag: string): GivenValue | undefined;
  /** How the giver names the option: `--port`, `MOCK_PORT`, `options.port`. */
  name(flag: string): string;
  /** Another option to set, in the terms `given` (a name of the same giver) is in: `--scenarios DIR`, `MOCK_SCENARIOS=DIR`, `options.scenarios DIR`. */
  refer(given: string, flag: string, placeholder: string): string;
  /** Where each given value came from, by flag, for Config.sources (what the start-up's messages name). */
  sources(): Record<string, string>;
}

export function givenOptions(from: OptionSource): GivenOptions {
  const source = (flag: string): string => from.name(flag);
  const text = (flag: string): string | undefined => {
    const value = from.value(flag);
    if (typeof value === 'number') return String(value);
    if (typeof value === 'string') return nonEmpty(source(flag), value);
    // Only startMock() can give a switch or a list here (`port: true`): refused, never a default in its place.
    if (value !== undefined) throw new ConfigError(`${source(flag)} takes text or a number, got ${shown(value)}`);
    return undefined;
  };
  return {
    given: (flag) => from.value(flag) !== undefined,
    text,
    scalar: (flag) => (typeof from.value(flag) === 'number' ? (from.value(flag) as number) : text(flag)),
    bool: (flag) => {
      const value = from.value(flag);
      if (typeof value === 'string') return isTruthy(source(flag), value);
      if (value !== undefined && typeof value !== 'boolean') throw new ConfigError(`${source(flag)} must be true or false, got ${shown(value)}`);
      return value === true;
    },
    list: (flag, required = false) => {
      const value = from.value(flag);
      if (value !== undefined && typeof value !== 'string' && !(Array.isArray(value) && value.every((item) => typeof item === 'string'))) throw new ConfigError(`${source(flag)} takes a list of text, got ${shown(value)}`);
      if (required && Array.isArray(value) && value.length === 0) throw new ConfigError(`${source(flag)} must not be empty`);
      const items = typeof value === 'string' ? (required ? nonEmpty(source(flag), value) : value).split(',') : Array.isArray(value) ? (value as readonly string[]) : [];
      return items.map((item) => item.trim()).filter(Boolean);
    },
    source,
    refer: (given, flag, placeholder) => from.refer(given, flag, placeholder),
    sources: () => from.sources(),
  };
}

/** A value of the wrong kind as the caller wrote it: `true`, `["a"]`, `5`. */
function shown(value: GivenValue): string {
  return JSON.stringify(value) ?? String(value);
}
