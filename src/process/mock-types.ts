// The types of a mock's assembly (mock.ts, contract-parts.ts): what createMock takes and gives.
import type { Express } from 'express';
import type { FixtureSpec } from '../../fixtures/fixture-spec.js';
import type { Contract } from '../core/contract-types.js';
import type { ContractClasses } from '../core/contract-classes.js';
import type { SnapshotStore } from '../core/snapshots.js';
import type { MockData } from '../core/model.js';
import type { LinkService } from '../core/links.js';
import type { RandomInt } from '../core/random.js';
import type { ScenarioRegistry } from '../core/scenario-registry.js';
import type { Scenario } from '../core/scenarios.js';
import type { OperationHandlers } from '../http/operations.js';
import type { Sleep } from '../http/scenarios.js';
import type { ContractRules } from '../scenarios/contract-rules.js';
import type { ServedContract } from '../admin/contract-routes.js';
import type { DataStore } from '../store/file/data-store.js';
import type { KeptData } from '../store/file/open-data.js';
import type { KeptFrom } from '../store/redis/redis-generations.js';
import type { LinkStore, StoreHealth } from '../core/link-store.js';
import type { SlugCheck } from './account-for-key.js';
import type { JournalStore, TrafficState } from '../core/traffic-state.js';
import type { VarietySettings } from '../variety/plan.js';
import type { VarietySwitch } from '../variety/switch.js';

/** Data opened elsewhere and shared by every instance (Redis): it seeded itself (D24). */
export interface SharedData {
  store: LinkStore & SlugCheck & { health(): Promise<StoreHealth> };
  seeded: boolean;
  /** When this start kept the data: who wrote it (redis-generations.ts). */
  keptFrom?: KeptFrom;
  /** Releases the store and whatever else it holds open (default: the store's close). */
  close?: () => Promise<void>;
  /**
   * The traffic state whose `times` counters the store's replaceAll deletes in its own atomic step
   * (Redis, same prefix: src/process/shared-state.ts). When it is the mock's, a reset or restore does not
   * clear them again after: that would be a second, separate step, erasing uses counted since.
   */
  countersResetBy?: TrafficState;
}

export interface MockOptions {
  /** This process's data: the lowdb file with its change log, or memory. */
  store?: DataStore;
  /** What `store` keeps, already read and checked (keptData): not read again; null: seed it. Default: read here. */
  storeData?: KeptData | null;
  /** Or data shared with other instances (`--db redis://`); exactly one of the two. */
  shared?: SharedData;
  contract: Contract;
  /** What the contract allows each operation to answer; built from `contract` when not given. */
  contractRules?: ContractRules;
  /** How `contract` is served against the shipped one; classified here when not given. */
  contractClasses?: ContractClasses;
  /** FILE as the user gave it (--contract), for GET /__admin/contract; absent: the shipped openapi.yaml. */
  contractFile?: string;
  /** Today's contract (--variety-from): what `contract` newly allows against it is varied as next.* dimensions. */
  varietyFrom?: Contract;
  fixtures: FixtureSpec;
  seed: number;
  /** 'relaxed' acknowledges a change before its write finishes (default 'durable'). */
  durability?: 'durable' | 'relaxed';
  /** Re-seed even if the store holds data. */
  reset?: boolean;
  version: string;
  /** The loaded scenarios, and the one active globally from the start. */
  scenarios?: readonly Scenario[];
  scenario?: string;
  /** Variety mode for every request from the start (--variety). */
  variety?: VarietySettings;
  corsOrigins?: readonly string[];
  /** Host names the admin API answers besides loopback ones when there is no admin token (--allowed-host). */
  allowedHosts?: readonly string[];
  /** How many requests the journal keeps (default 1000). */
  journalSize?: number;
  /** The journal, coverage and global scenario: default in this process's memory (journalSize entries). Closed by close(). */
  traffic?: TrafficState;
  /** Where named snapshots go (default: memory). */
  snapshots?: SnapshotStore;
  /** Required by the admin API when set. */
  adminToken?: string;
  /** An unknown API key becomes a fresh account seeded from the key (default: a 401). */
  acceptAnyKey?: boolean;
  /** With acceptAnyKey: once the data holds this many accounts, an unknown key is a 401 (default DEFAULT_MAX_ANY_KEY_ACCOUNTS). */
  maxAnyKeyAccounts?: number;
  log?: (line: string) => void;
  /** false: no line per request (--quiet); errors still go to `log`. Default true. */
  logRequests?: boolean;
  handlers?: Partial<OperationHandlers>;
  /** Proxy mode: API requests go to this upstream, both sides judged against the contract. */
  proxy?: ProxyOptions;
  random?: RandomInt;
  now?: () => Date;
  sleep?: Sleep;
}

export interface ProxyOptions {
  url: URL;
  /** An off-contract upstream answer becomes a 502 Error object. */
  strict: boolean;
  /** How long the upstream has for a whole answer. */
  timeoutMs: number;
  /** How many exchanges with the upstream at once (default DEFAULT_PROXY_CONCURRENCY). */
  concurrency?: number;
  /** How long a client has to take its answer before its connection is reset (default timeoutMs). */
  clientTimeoutMs?: number;
}

export interface Mock {
  app: Express;
  /** How the contract is served against the shipped one (GET /__admin/contract, the banner). */
  servedContract: ServedContract;
  service: LinkService;
  /** Where the data is: this process's (LocalLinkStore, whose indexes tests read) or shared. */
  store: LinkStore;
  scenarios: ScenarioRegistry;
  /** Variety mode's settings (the admin API's PUT /__admin/variety changes them too). */
  variety: VarietySwitch;
  journal: JournalStore;
  /** True when this start seeded the data, false when it kept the stored data. */
  seeded: boolean;
  /** Who wrote the data this start kept, when the store can tell (Redis); the file store's is always an earlier run. */
  keptFrom?: KeptFrom;
  /**
   * Builds what the mock serves on another contract (--watch reloading --contract FILE); the
   * function it returns swaps it in (app, servedContract, service). Throws in proxy mode.
   */
  prepareContract: (contract: MockContract) => () => void;
  /** Writes every change made so far, finishes background work and releases the store's files. */
  close: () => Promise<void>;
}

/** The contract a mock serves, and what was read or decided with it (kept-files.ts). */
export type MockContract = Pick<MockOptions, 'contract' | 'contractRules' | 'contractClasses' | 'contractFile'>;
export interface OpenedData {
  store: LinkStore & SlugCheck;
  seeded: boolean;
  keptFrom?: KeptFrom;
  /** Writes every change made so far and releases the store. */
  close: () => Promise<void>;
  health?: () => Promise<StoreHealth>;
}

