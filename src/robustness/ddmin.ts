// The shrinker of the robustness runner: delta debugging (Zeller and Hildebrandt's ddmin) over the
// dimensions a failing seed used, down to a 1-minimal set: one that fails while removing any single
// dimension from it passes.
//
// Why not fast-check's own shrinking (the issue prefers it): fc.check over fc.subarray(used) with
// the full set as an example shrinks, but not to a 1-minimal set. Measured with fast-check 4.10 on
// 30 dimensions and a deterministic predicate: a failure caused by d17 alone shrank to [d17, d29],
// one caused by d3 and d25 to [d3, d25, d29] after 39 calls (fc.uniqueArray of constantFrom keeps
// an extra d0 instead). The runner must name the dimension, and only it; and each call here runs the
// client's whole test command, so the fewest calls win: ddmin finds one cause among 30 in about ten.
// fast-check still draws the seeds (seeds.ts) and checks this shrinker in our tests.

export interface ShrinkResult<T> {
  /** The smallest failing set found, in the order of the input. */
  minimal: T[];
  /** How many times the predicate ran (answers remembered from earlier calls are not counted). */
  reruns: number;
  /** True when the budget ran out first: `minimal` fails but may not be 1-minimal. */
  exhausted: boolean;
}

/**
 * Shrinks `items`, which `fails` is known to fail on, to a 1-minimal failing subset, calling
 * `fails` at most `budget` times. Never calls it on the empty set nor on `items` itself.
 */
export async function ddmin<T>(items: readonly T[], fails: (subset: T[]) => Promise<boolean>, budget: number): Promise<ShrinkResult<T>> {
  const test = memoized(items, fails, budget);
  let current = [...items];
  let granularity = 2;
  // Bounded: each pass either shrinks `current` or raises the granularity, which stops at its length.
  while (current.length >= 2) {
    const smaller = await firstFailing(test, candidatesOf(current, granularity));
    if (smaller === 'exhausted') return { minimal: current, reruns: test.calls(), exhausted: true };
    if (smaller) {
      // A chunk: start over at two halves of it; a complement: keep the granularity but one.
      granularity = smaller.isChunk ? 2 : Math.max(granularity - 1, 2);
      current = smaller.subset;
    } else if (granularity >= current.length) {
      break;
    } else {
      granularity = Math.min(current.length, granularity * 2);
    }
  }
  return { minimal: current, reruns: test.calls(), exhausted: false };
}

interface Candidate<T> {
  subset: T[];
  isChunk: boolean;
}

/** The chunks of `current` in `n` parts, then (for n > 2, where they differ from the chunks) their complements. */
function candidatesOf<T>(current: T[], n: number): Array<Candidate<T>> {
  const chunks: T[][] = [];
  for (let i = 0; i < n; i += 1) chunks.push(current.slice(Math.floor((i * current.length) / n), Math.floor(((i + 1) * current.length) / n)));
  const nonEmpty = chunks.filter((chunk) => chunk.length > 0);
  const candidates = nonEmpty.map((subset) => ({ subset, isChunk: true }));
  if (n > 2) for (const chunk of nonEmpty) candidates.push({ subset: current.filter((item) => !chunk.includes(item)), isChunk: false });
  return candidates;
}

type Test<T> = ((subset: T[]) => Promise<boolean | 'exhausted'>) & { calls: () => number };

async function firstFailing<T>(test: Test<T>, candidates: Array<Candidate<T>>): Promise<Candidate<T> | undefined | 'exhausted'> {
  for (const candidate of candidates) {
    const result = await test(candidate.subset);
    if (result === 'exhausted') return 'exhausted';
    if (result) return candidate;
  }
  return undefined;
}

/** The predicate, remembered per subset (ddmin meets some twice) and counted against the budget. */
function memoized<T>(items: readonly T[], fails: (subset: T[]) => Promise<boolean>, budget: number): Test<T> {
  const known = new Map<string, boolean>();
  const indexOf = new Map(items.map((item, index) => [item, index]));
  let calls = 0;
  const test = async (subset: T[]): Promise<boolean | 'exhausted'> => {
    const key = subset.map((item) => indexOf.get(item)).join(',');
    const remembered = known.get(key);
    if (remembered !== undefined) return remembered;
    if (calls >= budget) return 'exhausted';
    calls += 1;
    const result = await fails(subset);
    known.set(key, result);
    return result;
  };
  return Object.assign(test, { calls: () => calls });
}
