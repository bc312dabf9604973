// startMock()'s `variety` option, `{ seed, only?, except? }`: the CLI has only its seed (--variety
// SEED, checked by configFrom), so its shape is checked here, before anything starts. Left
// unchecked, `variety: 5` or `{ sed: 1 }` had no seed to read and started a mock without variety.
import { guessAndKnown } from '../core/nearest.js';
import { ConfigError } from '../process/option-values.js';

export interface VarietyOption {
  seed: number;
  only?: readonly string[];
  except?: readonly string[];
}

const FIELDS = ['seed', 'only', 'except'] as const;

/** The option's seed, as the CLI's --variety check takes it; a refusal names the option. */
export function varietySeedOf(option: unknown): unknown {
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw new ConfigError(`options.variety takes { seed, only?, except? }, got ${JSON.stringify(option) ?? String(option)}`);
  }
  const unknown = Object.keys(option).find((name) => !(FIELDS as readonly string[]).includes(name));
  if (unknown !== undefined) throw new ConfigError(`options.variety has no field '${unknown}'${guessAndKnown(unknown, FIELDS, 'fields')}`);
  const { seed, only, except } = option as Partial<Record<(typeof FIELDS)[number], unknown>>;
  if (seed === undefined) throw new ConfigError('options.variety needs a seed: { seed: 1 }');
  for (const [field, names] of [['only', only], ['except', except]] as const) {
    if (names !== undefined && !(Array.isArray(names) && names.every((name) => typeof name === 'string'))) {
      throw new ConfigError(`options.variety.${field} takes a list of dimension names, got ${JSON.stringify(names) ?? String(names)}`);
    }
  }
  return seed;
}
