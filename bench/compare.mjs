// npm run bench:compare <ref> [--workload create|update|delete|mixed[,…]] [--rounds N] [--duration S]
//                             [--warmup S] [--threshold PCT] [--connections N] [--candidate SPEC] [--json FILE]
//                             [--ref-node BIN] [--candidate-node BIN]
// Is the working tree slower than <ref>? Rounds alternate between the two builds (ref, candidate,
// candidate, ref, …), each round on a fresh process of its build warmed up first, with the same load, and a paired t-test on the rounds'
// throughput ratios says "faster", "slower" or "no difference found" (bench/lib/compare-stats.mjs).
// Exit 1 when the candidate is slower than the threshold (default 5%) with 95% confidence; 2 on a
// usage error or a round whose answers were not all the expected ones.
// <ref>: a git ref (built in a cached worktree), `express` (bare Express), `ceiling` (bare Express on the mock's
// createHttpServer), `floor` (the ceiling with the mock's contract validator), or dir:/path (a built checkout).
// --ref-node / --candidate-node: the node binary a side's mock runs on (default: the one running
// this), so the same build can be compared on two Node.js lines: `dir:$PWD --candidate-node
// ~/.cache/shortlink-mock/node/24.22.3/bin/node` (the binaries of npm run test:node-lines).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { median, ratioInterval, verdict } from './lib/compare-stats.mjs';
import { resolveSide, startSide, stopSide, WORKING_TREE } from './lib/compare-sides.mjs';
import { COMPARE_WORKLOADS, measureRound } from './lib/compare-workloads.mjs';
import { stopChildrenOnSignals } from './lib/processes.mjs';

const USAGE = 'usage: npm run bench:compare <git-ref | express | ceiling | floor | dir:/path> [--workload create|update|delete|mixed[,…]] [--rounds N] [--duration S] [--warmup S] [--threshold PCT] [--connections N] [--candidate SPEC] [--json FILE] [--ref-node BIN] [--candidate-node BIN]';

const OPTION_NAMES = ['workload', 'rounds', 'duration', 'warmup', 'threshold', 'connections', 'candidate', 'json', 'ref-node', 'candidate-node'];

/** `npm run bench:compare main --rounds 3` hands --rounds to npm (npm_config_rounds=true) and 3 to us. */
function npmTookFlags() {
  const taken = OPTION_NAMES.filter((name) => process.env[`npm_config_${name}`] !== undefined);
  if (!taken.length) return undefined;
  return `npm took --${taken.join(', --')} as its own option: put -- before the ref, as in npm run bench:compare -- main --${taken[0]} …`;
}

function settingsFrom(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      workload: { type: 'string', default: 'create' },
      rounds: { type: 'string', default: '10' },
      duration: { type: 'string', default: '5' },
      warmup: { type: 'string', default: '3' },
      threshold: { type: 'string', default: '5' },
      connections: { type: 'string', default: '50' },
      candidate: { type: 'string', default: WORKING_TREE },
      json: { type: 'string' },
      'ref-node': { type: 'string' },
      'candidate-node': { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new Error(npmTookFlags() ?? USAGE);
  const number = (name, min, max) => {
    const value = Number(values[name]);
    if (!Number.isFinite(value) || value < min || value > max) throw new Error(`--${name} must be a number from ${min} to ${max}, got '${values[name]}'`);
    return value;
  };
  const workloads = values.workload.split(',').map((name) => name.trim());
  const unknown = workloads.filter((name) => !COMPARE_WORKLOADS.includes(name));
  if (unknown.length) throw new Error(`--workload: unknown '${unknown.join("', '")}'; one or more of ${COMPARE_WORKLOADS.join(', ')}`);
  return {
    ref: positionals[0],
    candidate: values.candidate,
    workloads,
    rounds: number('rounds', 2, 50),
    durationSec: number('duration', 1, 120),
    warmUpSec: number('warmup', 0, 120),
    threshold: number('threshold', 0, 100) / 100,
    connections: number('connections', 1, 1000),
    json: values.json,
    refNode: values['ref-node'],
    candidateNode: values['candidate-node'],
  };
}

/**
 * Alternating rounds of one workload: ref, candidate, candidate, ref, … so that drift of the
 * machine falls on both. Each round starts a fresh process of its side, warms it up and measures
 * it: a process that happened to start in a slower state (its heap's layout, the JIT's choices,
 * the core it landed on) then counts for one round, not for all of them.
 */
async function compareWorkload(name, sides, settings) {
  const memory = [{}, {}];
  const rounds = [[], []];
  for (let round = 0; round < settings.rounds; round += 1) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const index of order) {
      const server = await startSide(sides[index]);
      try {
        if (settings.warmUpSec > 0) await measureRound(name, server, { ...settings, durationSec: settings.warmUpSec }, memory[index]);
        const result = await measureRound(name, server, settings, memory[index]);
        rounds[index].push(result);
        console.error(`  ${name} round ${round + 1}/${settings.rounds} ${index === 0 ? 'ref      ' : 'candidate'} ${result.reqPerSec.toFixed(0)} req/s, p99 ${result.p99} ms${result.problems.length ? ` INVALID: ${result.problems.join(', ')}` : ''}`);
      } finally {
        await stopSide(server);
      }
    }
  }
  const problems = rounds.flat().flatMap((round) => round.problems);
  const interval = ratioInterval(rounds[0].map((ref, i) => ({ ref: ref.reqPerSec, candidate: rounds[1][i].reqPerSec })));
  const side = (list) => ({ reqPerSec: median(list.map((r) => r.reqPerSec)), p50: median(list.map((r) => r.p50)), p99: median(list.map((r) => r.p99)), rounds: list.map((r) => Math.round(r.reqPerSec)) });
  return { workload: name, ref: side(rounds[0]), candidate: side(rounds[1]), interval, verdict: verdict(interval, settings), problems };
}

function printResult(result, labels) {
  const { ref, candidate, interval, verdict: { word, failsGate } } = result;
  const pct = (value) => `${value >= 1 ? '+' : ''}${((value - 1) * 100).toFixed(1)}%`;
  console.log(`\n${result.workload}: ${word}${failsGate ? ' (beyond the threshold: FAIL)' : ''}`);
  console.log(`  median ratio ${interval.median.toFixed(3)}× (${pct(interval.median)}), 95% CI ${interval.low.toFixed(3)}–${interval.high.toFixed(3)}× (paired t-test on log ratios of ${ref.rounds.length} alternating round pairs)`);
  for (const [label, side] of [[labels[0], ref], [labels[1], candidate]]) {
    console.log(`  ${label.padEnd(34)} ${side.reqPerSec.toFixed(0).padStart(7)} req/s  p50 ${String(side.p50).padStart(4)} ms  p99 ${String(side.p99).padStart(4)} ms  rounds ${side.rounds.join(', ')}`);
  }
  if (result.problems.length) console.log(`  INVALID rounds: ${result.problems.join('; ')}`);
}

async function main() {
  let settings;
  try {
    settings = settingsFrom(process.argv.slice(2));
  } catch (error) {
    console.error(error.message);
    return 2;
  }
  stopChildrenOnSignals();
  let sides;
  try {
    sides = [resolveSide(settings.ref, console.error, settings.refNode), resolveSide(settings.candidate, console.error, settings.candidateNode)];
  } catch (error) {
    console.error(error.message);
    return 2;
  }
  console.error(`bench:compare: ref ${sides[0].label}; candidate ${sides[1].label}; ${settings.rounds} rounds of ${settings.durationSec} s after ${settings.warmUpSec} s of warm-up, each on a fresh process; ${settings.connections} connections`);
  const results = [];
  for (const name of settings.workloads) results.push(await compareWorkload(name, sides, settings));
  for (const result of results) printResult(result, [`ref ${sides[0].label}`, `candidate ${sides[1].label}`]);
  if (settings.json) writeFileSync(settings.json, `${JSON.stringify({ ref: sides[0].label, candidate: sides[1].label, settings, results }, null, 2)}\n`);
  if (results.some((result) => result.problems.length)) return 2;
  return results.some((result) => result.verdict.failsGate) ? 1 : 0;
}

process.exitCode = await main();
