// The statistics of `npm run bench:compare`: rounds alternate between the two builds (ref first,
// then candidate first, …), so each pair of neighbouring rounds saw nearly the same machine. The
// test is a paired t-test on the log of each pair's throughput ratio (candidate / ref): its 95%
// confidence interval, turned back from logs, bounds the ratio of the two builds' throughputs.
// Logs make 0.8× and 1.25× the same distance from 1. Pure functions: table-tested in
// test/bench/compare-stats.test.ts.

/** Two-sided 95% quantiles of Student's t, by degrees of freedom (1..30); past 30, 1.96 is close enough. */
const T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

export function t95(degreesOfFreedom) {
  if (!Number.isInteger(degreesOfFreedom) || degreesOfFreedom < 1) throw new RangeError(`degrees of freedom must be a whole number ≥ 1, got ${degreesOfFreedom}`);
  return T95[degreesOfFreedom - 1] ?? 1.96;
}

export function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Pairs of throughputs { ref, candidate } → the median ratio candidate/ref, and the 95% interval
 * of the (geometric mean) ratio from a paired t-test on the logs. Needs at least two pairs.
 */
export function ratioInterval(pairs) {
  if (pairs.length < 2) throw new RangeError(`a confidence interval needs at least 2 round pairs, got ${pairs.length}`);
  const logs = pairs.map(({ ref, candidate }) => {
    if (!(ref > 0) || !(candidate > 0)) throw new RangeError(`throughputs must be positive, got ref ${ref}, candidate ${candidate}`);
    return Math.log(candidate / ref);
  });
  const n = logs.length;
  const mean = logs.reduce((sum, value) => sum + value, 0) / n;
  const variance = logs.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
  const halfWidth = t95(n - 1) * Math.sqrt(variance / n);
  return {
    median: median(logs.map(Math.exp)),
    geometricMean: Math.exp(mean),
    low: Math.exp(mean - halfWidth),
    high: Math.exp(mean + halfWidth),
  };
}

/**
 * "faster" or "slower" only when the whole interval lies beyond ±minEffect of 1 (by default 1%):
 * smaller differences are within what alternating rounds on one machine resolve, and calling them
 * would make two identical builds "differ" in about one run of twenty. `failsGate`: the candidate
 * is slower than 1 − threshold with confidence (the interval's top is below it): exit 1.
 */
export function verdict(interval, { threshold = 0.05, minEffect = 0.01 } = {}) {
  const word = interval.high < 1 - minEffect ? 'slower' : interval.low > 1 + minEffect ? 'faster' : 'no difference found';
  return { word, failsGate: interval.high < 1 - threshold };
}
