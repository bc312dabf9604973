// From the raw rounds in results.json to medians, ratios and target verdicts.
export const median = (values) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const max = (values) => Math.max(...values.filter((value) => Number.isFinite(value)));

/** One server's rounds of one workload → medians (throughput, latency), maxima (memory, stalls). */
export function summarizeRounds(rounds) {
  return {
    reqPerSec: median(rounds.map((r) => r.reqPerSec)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    peakRss: max(rounds.map((r) => r.peakRss)),
    eldMax: max(rounds.map((r) => r.eld?.max ?? Number.NaN)),
    probeMax: max(rounds.map((r) => r.probe?.max ?? Number.NaN)),
    valid: rounds.every((r) => r.valid),
    problems: [...new Set(rounds.flatMap((r) => r.problems))],
    statuses: rounds.reduce((sum, r) => {
      for (const [code, count] of Object.entries(r.statuses)) sum[code] = (sum[code] ?? 0) + count;
      return sum;
    }, {}),
    rounds: rounds.length,
  };
}

/** Rows for every store size × workload: mock, baseline and their ratios. */
export function summarize(results) {
  const rows = [];
  for (const [links, size] of Object.entries(results.sizes)) {
    for (const [workload, rounds] of Object.entries(size.workloads)) {
      const mock = summarizeRounds(rounds.mock);
      const baseline = summarizeRounds(rounds.baseline);
      rows.push({ links: Number(links), workload, mock, baseline, throughputRatio: mock.reqPerSec / baseline.reqPerSec, p99Ratio: mock.p99 / baseline.p99 });
    }
  }
  return rows;
}

export function coldStarts(results) {
  return Object.entries(results.sizes).map(([links, size]) => ({
    links: Number(links),
    median: median(size.coldStartMs),
    max: max(size.coldStartMs),
    count: size.coldStartMs.length,
    seedMs: size.seedMs,
    idleProbe: size.idleProbe,
  }));
}

/** Each target of the issue: {target, value, verdict: PASS | FAIL | not measured | INVALID}. */
export function targets(results, soak) {
  const rows = summarize(results);
  const row = (links, workload) => rows.find((r) => r.links === links && r.workload === workload);
  const colds = coldStarts(results);
  const cold = (links) => colds.find((c) => c.links === links);
  const small = row(1000, 'create');
  const big = row(100000, 'create');
  const mockRows = rows.filter((r) => Number.isFinite(r.mock.eldMax));
  const worst = mockRows.reduce((a, b) => (b.mock.eldMax > (a?.mock.eldMax ?? -1) ? b : a), undefined);
  const worstProbe = rows.reduce((a, b) => (b.mock.probeMax > (a?.mock.probeMax ?? -1) ? b : a), undefined);
  const check = (ok, ...inputs) => (inputs.some((input) => !input) ? 'not measured' : inputs.some((input) => input.mock && (!input.mock.valid || !input.baseline.valid)) ? 'INVALID' : ok() ? 'PASS' : 'FAIL');
  const pct = (value) => `${(value * 100).toFixed(0)}%`;
  const ms = (value) => `${Math.round(value)} ms`;
  const where = (r) => (r ? ` (${r.workload}, ${r.links.toLocaleString('en')} links)` : '');
  return [
    { target: 'create @ 1,000 links: throughput ≥ 70% of bare Express (aim 100%)', value: small ? `${pct(small.throughputRatio)} (${Math.round(small.mock.reqPerSec)} vs ${Math.round(small.baseline.reqPerSec)} req/s)` : '—', verdict: check(() => small.throughputRatio >= 0.7, small) },
    { target: 'create @ 1,000 links: p99 ≤ 2× bare Express p99', value: small ? `${small.p99Ratio.toFixed(2)}× (${small.mock.p99} vs ${small.baseline.p99} ms)` : '—', verdict: check(() => small.p99Ratio <= 2, small) },
    writePathTarget(results.writePath, pct),
    { target: '… the same from the main table (the two sizes measured minutes apart)', value: small && big ? `${pct(big.mock.reqPerSec / small.mock.reqPerSec)} (${Math.round(big.mock.reqPerSec)} vs ${Math.round(small.mock.reqPerSec)} req/s)` : '—', verdict: check(() => big.mock.reqPerSec >= 0.9 * small.mock.reqPerSec, small, big) },
    {
      target: '… the same, each size read as its ratio to bare Express measured alongside it (the two sizes run minutes apart: this cancels the machine\'s drift between them)',
      value: small && big ? `${pct(big.throughputRatio / small.throughputRatio)} (${pct(big.throughputRatio)} of bare at 100,000 vs ${pct(small.throughputRatio)} at 1,000; bare itself: ${Math.round(big.baseline.reqPerSec)} vs ${Math.round(small.baseline.reqPerSec)} req/s)` : '—',
      verdict: check(() => big.throughputRatio >= 0.9 * small.throughputRatio, small, big),
    },
    { target: 'create @ 100,000 links: no event-loop stall over 50 ms (monitorEventLoopDelay max in the mock, every measured round)', value: big && Number.isFinite(big.mock.eldMax) ? `${big.mock.eldMax} ms max (bare Express: ${big.baseline.eldMax} ms)` : '—', verdict: check(() => big.mock.eldMax <= 50, big) },
    { target: '… the same over every workload and store size (stricter than the target)', value: worst ? `${worst.mock.eldMax} ms max${where(worst)}` : '—', verdict: check(() => worst.mock.eldMax <= 50, worst) },
    { target: '… outside proxy, every workload and size: max latency of a CORS preflight sent every 10 ms during the load (an upper bound: includes queueing behind the load)', value: worstProbe ? `${worstProbe.mock.probeMax} ms max${where(worstProbe)}` : '—', verdict: check(() => worstProbe.mock.probeMax <= 50, worstProbe) },
    { target: 'cold start to the first answered request @ 1,000 links: < 1 s (median of every mock start)', value: cold(1000) ? `${ms(cold(1000).median)} (max ${ms(cold(1000).max)}, n=${cold(1000).count})` : '—', verdict: check(() => cold(1000).median < 1000, cold(1000)) },
    { target: 'cold start @ 100,000 links: < 3 s (median of every mock start)', value: cold(100000) ? `${ms(cold(100000).median)} (max ${ms(cold(100000).max)}, n=${cold(100000).count})` : '—', verdict: check(() => cold(100000).median < 3000, cold(100000)) },
    {
      target: `RSS flat (within 10%) over a ${soak ? Math.round(soak.soakSec / 60) : 5}-minute mixed load after warm-up (npm run bench:soak)`,
      value: soak ? `first ${soak.first} MiB, last ${soak.last} MiB, min ${soak.min}, max ${soak.max} MiB (${soak.spreadPct}% spread; ${soak.date.slice(0, 10)})` : 'run npm run bench:soak',
      verdict: soak ? (soak.valid ? (soak.withinTenPct ? 'PASS' : 'FAIL') : 'INVALID') : 'not measured',
    },
  ];
}

/** create at 100,000 against 1,000 links, from the rounds that alternate the two sizes. */
function writePathTarget(writePath, pct) {
  const target = 'create @ 100,000 links: ≥ 90% of the 1,000-link throughput (rounds alternating the two sizes)';
  if (!writePath) return { target, value: 'needs 1,000 and 100,000 in BENCH_SIZES and create in BENCH_WORKLOADS', verdict: 'not measured' };
  const small = summarizeRounds(writePath[1000]);
  const big = summarizeRounds(writePath[100000]);
  const value = `${pct(big.reqPerSec / small.reqPerSec)} (${Math.round(big.reqPerSec)} vs ${Math.round(small.reqPerSec)} req/s, medians of ${big.rounds} rounds each)`;
  const verdict = !small.valid || !big.valid ? 'INVALID' : big.reqPerSec >= 0.9 * small.reqPerSec ? 'PASS' : 'FAIL';
  return { target, value, verdict };
}
