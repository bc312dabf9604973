// startMock()'s `variety` option, `{ seed, only?, except? }`: the CLI has only its seed (--variety
// SEED, checked by configFrom), so its shape and its dimensions are checked here, before anything
// starts. Left unchecked, `variety: 5` or `{ sed: 1 }` had no seed to read and started a mock
// without variety, and an unknown dimension was refused by the admin API only once it listened.
import { guessAndKnown } from '../core/nearest.js';
import type { Config } from '../process/config.js';
import { varietyFrom } from '../process/flag-options.js';
import { ConfigError } from '../process/option-values.js';
import { startupContract } from '../process/startup.js';
import { catalogueOf, unknownDimension } from '../variety/catalogue.js';

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

/**
 * `only` and `except` against the dimensions of the contract the mock will serve (with
 * `varietyFrom`'s next.* ones), the list and the refusal PUT /__admin/variety uses.
 */
export function refuseUnknownDimensions(config: Config, variety: VarietyOption | undefined): void {
  if (variety?.only === undefined && variety?.except === undefined) return;
  const known = catalogueOf(startupContract(config).contract.document, varietyFrom(config).varietyFrom?.document).map((dimension) => dimension.name);
  for (const field of ['only', 'except'] as const) {
    const unknown = unknownDimension(variety[field] ?? [], known, `options.variety.${field}`);
    if (unknown !== undefined) throw new ConfigError(`startMock: ${unknown}`);
  }
}
