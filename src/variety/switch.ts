// Where variety is switched on: for every request (--variety, or PUT /__admin/variety without a
// key) or for one API key's requests (so that parallel suites, each with its key, stay isolated),
// and the plan each request gets. Plans are computed when a setting changes, never per request;
// `on` is the one check a request pays when variety is off. Shared by instances (Redis), a change
// is written there first and each instance follows the others' (refresh(), follow-shared.ts).
import { errors } from '../core/errors.js';
import type { OpenApiDocument } from '../core/contract-types.js';
import type { Dimension } from './dimensions.js';
import { catalogueOf, unknownDimension } from './catalogue.js';
import { notVaried, type NotVaried } from './not-varied.js';
import { planOf, type VarietyPlan, type VarietySettings } from './plan.js';
import type { SharedVarietySettings, VarietySetting } from '../core/variety-settings.js';

export type { VarietySetting } from '../core/variety-settings.js';

export interface VarietyOverview {
  global: VarietySetting | null;
  byKey: Record<string, VarietySetting>;
}

interface Active {
  setting: VarietySetting;
  plan: VarietyPlan;
}

/** How many x-mock-variety seeds' plans are kept: a client sending a new seed on every request recomputes, never grows memory. */
export const SEED_PLANS = 64;
/** API keys with a variety setting of their own: each holds its plan, so a client cannot grow them without bound. */
export const MAX_KEY_SETTINGS = 1_000;

export class VarietySwitch {
  /** Whether any setting is on: false means no request is varied unless it asks (x-mock-variety). */
  on = false;
  private global: Active | undefined;
  private readonly byKey = new Map<string, Active>();
  /** x-mock-variety's plans, by the setting they were drawn within and the seed; emptied on any change. */
  private readonly seedPlans = new Map<string, VarietyPlan>();
  private readonly names: readonly string[];
  /** The shared settings' change counter this copy was read at. */
  private version: string | null = null;
  /**
   * With a next contract's new fields (next-dimensions.ts): the plan of a request no setting varies,
   * which leaves them out, so that answers are today's until a dimension is on. Undefined otherwise.
   */
  private readonly today: VarietyPlan | undefined;

  constructor(
    readonly catalogue: readonly Dimension[],
    readonly shared?: SharedVarietySettings,
    /** What variety leaves as it is, and why (GET /__admin/variety/dimensions says so). */
    readonly notVaried: readonly NotVaried[] = [],
  ) {
    this.names = catalogue.map((dimension) => dimension.name);
    const withholds = catalogue.some((dimension) => dimension.kind === 'body' && dimension.withheldWhenOff);
    this.today = withholds ? planOf(catalogue, { seed: 0, only: [] }) : undefined;
    this.on = withholds;
  }

  /** Checks and turns on a setting; an unknown dimension name is a 400 with a guess. */
  async set(settings: VarietySettings & { apiKey?: string | null }): Promise<VarietySetting> {
    const setting: VarietySetting = { seed: settings.seed, apiKey: settings.apiKey ?? null, only: this.known(settings.only, 'only'), except: this.known(settings.except, 'except') };
    await this.refresh();
    if (setting.apiKey !== null && !this.byKey.has(setting.apiKey) && this.byKey.size >= MAX_KEY_SETTINGS) {
      throw errors.invalidRequest(`at most ${MAX_KEY_SETTINGS} API keys may have a variety setting of their own; clear one first (DELETE /__admin/variety?apiKey=…)`);
    }
    await this.shared?.set(setting);
    this.apply(setting);
    return setting;
  }

  /** Turns off the global setting (no key) or one key's. */
  async clear(apiKey?: string): Promise<void> {
    await this.shared?.clear(apiKey ?? null);
    this.drop(apiKey ?? null);
  }

  /** What is on now; shared, as the shared settings say (and this copy follows them). */
  async overview(): Promise<VarietyOverview> {
    await this.refresh(true);
    return { global: this.global?.setting ?? null, byKey: Object.fromEntries([...this.byKey].map(([key, active]) => [key, active.setting])) };
  }

  /** Reads the shared settings again when their counter moved (or `always`); nothing to do unshared. */
  async refresh(always = false): Promise<void> {
    if (!this.shared) return;
    if (!always && (await this.shared.version()) === this.version) return;
    const { version, settings } = await this.shared.all();
    this.global = undefined;
    this.byKey.clear();
    this.seedPlans.clear();
    for (const setting of settings) this.apply(setting);
    this.on = this.anyOn();
    this.version = version;
  }

  private apply(setting: VarietySetting): void {
    this.seedPlans.clear();
    const active = { setting, plan: planOf(this.catalogue, setting) };
    if (setting.apiKey === null) this.global = active;
    else this.byKey.set(setting.apiKey, active);
    this.on = true;
  }

  private drop(apiKey: string | null): void {
    this.seedPlans.clear();
    if (apiKey === null) this.global = undefined;
    else this.byKey.delete(apiKey);
    this.on = this.anyOn();
  }

  private anyOn(): boolean {
    return this.global !== undefined || this.byKey.size > 0 || this.today !== undefined;
  }

  /** The plan for a request with this key: its own, else the global one. */
  planFor(apiKey: string | undefined): { plan: VarietyPlan; seed: number } | undefined {
    const active = this.activeFor(apiKey);
    if (active) return { plan: active.plan, seed: active.setting.seed };
    return this.today && { plan: this.today, seed: 0 };
  }

  /**
   * One request's own seed (x-mock-variety), within the dimensions the setting that applies to its
   * key allows (that setting's `only`/`except`), or among every dimension when none applies.
   */
  planOfSeed(seed: number, apiKey?: string): VarietyPlan {
    const within = this.activeFor(apiKey)?.setting;
    const key = `${within ? (within.apiKey ?? '') : '\u0000'}\u0000${seed}`;
    let plan = this.seedPlans.get(key);
    if (plan) return plan;
    plan = planOf(this.catalogue, { seed, only: within?.only ?? null, except: within?.except ?? null });
    if (this.seedPlans.size >= SEED_PLANS) this.seedPlans.clear();
    this.seedPlans.set(key, plan);
    return plan;
  }

  /** How many x-mock-variety plans are kept now (at most SEED_PLANS). */
  get seedPlansKept(): number {
    return this.seedPlans.size;
  }

  private activeFor(apiKey: string | undefined): Active | undefined {
    return (apiKey === undefined ? undefined : this.byKey.get(apiKey)) ?? this.global;
  }

  private known(names: readonly string[] | null | undefined, field: string): string[] | null {
    if (names === undefined || names === null) return null;
    const unknown = unknownDimension(names, this.names, `'${field}'`);
    if (unknown !== undefined) throw errors.invalidRequest(unknown);
    // Each name once: a setting holds at most the catalogue's names, whatever was sent (1,000 keys may have one).
    return [...new Set(names)];
  }
}

/**
 * The switch of a contract: its dimensions and what it leaves as it is, read from the document;
 * with `from` (today's contract, --variety-from), also what the document newly allows against it.
 */
export function varietySwitchFor(document: unknown, shared?: SharedVarietySettings, from?: OpenApiDocument): VarietySwitch {
  const catalogue = catalogueOf(document, from);
  return new VarietySwitch(catalogue, shared, notVaried(document, catalogue));
}

/** A seed as the flag and the header take it: a whole number from 0 to 2^53-1, in decimal. */
export function parseSeed(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,16}$/.test(trimmed)) return undefined;
  const seed = Number(trimmed);
  return Number.isSafeInteger(seed) ? seed : undefined;
}
