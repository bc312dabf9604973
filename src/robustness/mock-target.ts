// The mock the robustness runner drives: one it starts in this process (startMock, an in-memory
// store, back to the fixtures before each run so that a seed replays the same answers), or one
// already running at --base-url (its state is the user's: never reset, only read and switched).
// Either way only through the admin API, as any client of it would.
import { CONTRACT_FILE } from '../contract/package-files.js';
import { NEXT_PREFIX } from '../variety/next-dimensions.js';
import { AdminClient } from '../toolkit/admin-client.js';
import type { JournalEntry } from '../toolkit/admin-types.js';

/** What the journal says of an answer's variety (null: none; absent: a mock without variety mode). */
export interface VarietyNote {
  seed: number;
  dimensions: string[];
}

export type VarietyEntry = JournalEntry & { variety?: VarietyNote | null };

/**
 * Journal entries read after one run at most (the newest; the journal's own default size is 1,000).
 * A run that answered more is shrunk over every dimension when its set does not fail again (shrink.ts).
 */
export const MAX_JOURNAL_READ = 5_000;

export interface VarietySwitch {
  seed: number;
  only?: readonly string[];
  except?: readonly string[];
}

export interface MockTarget {
  readonly url: string;
  /** Before each run: the fixtures again on a mock of our own; nothing on the user's. */
  beforeRun(): Promise<void>;
  setVariety(variety: VarietySwitch): Promise<void>;
  clearVariety(): Promise<void>;
  /** After a varied run: variety off again on the user's mock; nothing on our own (targetOver says why). */
  afterVariedRun(): Promise<void>;
  /** The last journal number so far (0 for none), to read a run's entries afterwards. */
  journalMark(): Promise<number>;
  /** The journal's entries numbered after `mark`, oldest first. */
  journalAfter(mark: number): Promise<VarietyEntry[]>;
  /** Every dimension the mock knows, when the journal cannot tell which a run used. */
  dimensions(): Promise<string[]>;
  /** Each dimension's one-line description, for the report. */
  descriptions(): Promise<Map<string, string>>;
  stop(): Promise<void>;
}

export interface TargetOptions {
  /** The mock at this URL; none: start one. */
  baseUrl?: string;
  adminToken?: string;
  /** Variety for this key only, and the journal of this key only: other suites on the mock are left alone. */
  apiKey?: string;
  /** A mock of our own serving `next`, varied only by what it newly allows against `from` (the shipped contract by default). */
  contract?: { next: string; from?: string };
}

/** Starts or reaches the mock; rejects (an AdminApiError or a start-up error) when it cannot. */
export async function openTarget(options: TargetOptions): Promise<MockTarget> {
  if (options.baseUrl !== undefined) {
    const client = new AdminClient(options.baseUrl, { adminToken: options.adminToken });
    await client.call('GET', '/variety/dimensions'); // reachable, token accepted, and variety mode known
    const target = targetOver(client, options.apiKey, { beforeRun: async () => {}, stop: async () => {} }, false);
    // A mock that will not switch variety on (a proxy: its answers are the upstream's) is refused
    // now, before the command runs. `only: []` varies nothing meanwhile.
    await target.setVariety({ seed: 0, only: [] });
    await target.clearVariety();
    return target;
  }
  const { startMock } = await import('../toolkit/start-mock.js');
  const { contract } = options;
  const mock = await startMock({ log: () => {}, ...(contract === undefined ? {} : { contract: contract.next, varietyFrom: contract.from ?? CONTRACT_FILE }) });
  const client = new AdminClient(mock.url);
  const target = targetOver(client, options.apiKey, { beforeRun: async () => void (await mock.reset()), stop: () => mock.stop() }, true);
  return contract === undefined ? target : nextOnly(target);
}

/**
 * Under --contract: only what NEXT newly allows is varied (next-dimensions.ts), every other
 * dimension is kept off, so that a failure is NEXT's; shrinking (`only`) names next ones anyway.
 */
function nextOnly(target: MockTarget): MockTarget {
  const isNext = (name: string): boolean => name.startsWith(NEXT_PREFIX);
  let others: Promise<string[]> | undefined;
  return {
    ...target,
    setVariety: async (variety) => target.setVariety(variety.only === undefined ? { ...variety, except: await (others ??= target.dimensions().then((names) => names.filter((name) => !isNext(name)))) } : variety),
    dimensions: async () => (await target.dimensions()).filter(isNext),
    descriptions: async () => new Map([...(await target.descriptions())].filter(([name]) => isNext(name))),
  };
}

/**
 * `ours`: a mock this runner started, which no one but the command's runs talks to. Then two admin
 * calls of each run are spared (each run made six; brittle-clients.test.ts makes about 680 runs,
 * at about 1.5 ms of CPU a call in this process): the journal's newest entry read after a run is
 * still the newest when the next one starts (admin calls are not journaled), and variety is not
 * switched off after a run, as the next run sets its own and the mock stops after the last.
 */
function targetOver(client: AdminClient, apiKey: string | undefined, own: Pick<MockTarget, 'beforeRun' | 'stop'>, ours: boolean): MockTarget {
  const key = apiKey === undefined ? {} : { apiKey };
  const journal: Record<string, string> = apiKey === undefined ? {} : { account: apiKey };
  const clearVariety = async (): Promise<void> => void (await client.call('DELETE', '/variety', undefined, key));
  const newestSeq = async (): Promise<number> => (await entries(client, { ...journal, limit: 1 })).at(-1)?.seq ?? 0;
  let newestRead: number | undefined;
  return {
    url: client.baseUrl,
    ...own,
    setVariety: async ({ seed, only, except }) => void (await client.call('PUT', '/variety', { seed, ...key, ...(only === undefined ? {} : { only }), ...(except === undefined ? {} : { except }) })),
    clearVariety,
    afterVariedRun: ours ? async () => {} : clearVariety,
    journalMark: async () => (ours ? newestRead : undefined) ?? (await newestSeq()),
    journalAfter: async (mark) => {
      // Only as many as the run can have added: a mock keeping a million entries is not read whole.
      const newest = (newestRead = await newestSeq());
      if (newest <= mark) return [];
      return (await entries(client, { ...journal, limit: Math.min(newest - mark, MAX_JOURNAL_READ) })).filter((entry) => entry.seq > mark);
    },
    dimensions: async () => [...(await listed(client)).keys()],
    descriptions: () => listed(client),
  };
}

async function listed(client: AdminClient): Promise<Map<string, string>> {
  const { dimensions } = await client.call<{ dimensions: Array<{ name: string; description: string }> }>('GET', '/variety/dimensions');
  return new Map(dimensions.map((dimension) => [dimension.name, dimension.description]));
}

async function entries(client: AdminClient, query: Record<string, string | number>): Promise<VarietyEntry[]> {
  return (await client.call<{ entries: VarietyEntry[] }>('GET', '/requests', undefined, query)).entries;
}
