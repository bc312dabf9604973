// Puts a mock together from its parts: the data (kept or seeded), the group-committing store, the
// link service and the Express app. The CLI and the test builder both start here.
import type { Express } from 'express';
import { buildSeed } from '../fixtures/seed.js';
import type { FixtureSpec } from '../fixtures/fixture-spec.js';
import { createApp, type Contract } from './app.js';
import { LinkService } from './core/links.js';
import type { MockData } from './core/model.js';
import { cryptoRandomInt, type RandomInt } from './core/random.js';
import type { OperationHandlers } from './http/operations.js';
import type { DataStore } from './store/data-store.js';
import { GroupCommit } from './store/group-commit.js';
import { openData } from './store/open-data.js';

export interface MockOptions {
  store: DataStore;
  contract: Contract;
  fixtures: FixtureSpec;
  seed: number;
  /** Re-seed even if the store holds data. */
  reset?: boolean;
  version: string;
  corsOrigins?: string[];
  log?: (line: string) => void;
  handlers?: Partial<OperationHandlers>;
  random?: RandomInt;
  now?: () => Date;
}

export interface Mock {
  app: Express;
  service: LinkService;
  /** True when this start seeded the data, false when it kept the stored data. */
  seeded: boolean;
  /** Resolves when every acknowledged change is written. */
  flush: () => Promise<void>;
}

export async function createMock(options: MockOptions): Promise<Mock> {
  const seed = (): MockData => buildSeed(options.seed, options.fixtures);
  const opened = await openData(options.store, seed, options.reset ?? false);
  const commits = new GroupCommit<MockData>((data) => options.store.write(data));
  const service = new LinkService({
    data: opened.data,
    persist: (data) => commits.commit(data),
    random: options.random ?? cryptoRandomInt,
    now: options.now ?? (() => new Date()),
  });
  const app = createApp({
    service,
    contract: options.contract,
    reset: () => service.replaceData(seed()),
    version: options.version,
    ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.handlers ? { handlers: options.handlers } : {}),
  });
  return { app, service, seeded: opened.seeded, flush: () => commits.flush() };
}
