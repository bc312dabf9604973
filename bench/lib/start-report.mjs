// The "Start-up" section of RESULTS.md, from bench/start-result.json (npm run bench:start):
// medians of the cold runs, per build, and the issue's two targets.
import { median } from './summary.mjs';

const TARGETS = { version: 300, listening: 1000 };
const ms = (values) => `${Math.round(median(values))} ms`;
const spread = (values) => `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}`;
const table = (head, rows) => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

export function startSection(start) {
  if (!start) return '## Start-up\n\nNot measured yet: `npm run bench:start`.\n';
  const { settings, machine } = start;
  const links = settings.links.toLocaleString('en');
  const cell = (values) => `${ms(values)} (${spread(values)})`;
  const rows = start.builds.map((b) => [b.label, cell(b.version), cell(b.help), cell(b.listening), cell(b.listeningCpu), cell(b.firstAnswer), cell(b.firstAnswerCpu)]);
  const first = start.builds[0];
  const verdict = (values, limit) => (median(values) < limit ? 'PASS' : 'FAIL');
  const command = `${settings.runs === 15 ? '' : `BENCH_START_RUNS=${settings.runs} `}${settings.links === 1000 ? '' : `BENCH_START_LINKS=${settings.links} `}${settings.other ? `BENCH_START_OTHER=${settings.other} ` : ''}npm run bench:start`;
  return `## Start-up

\`${command}\` (\`node bench/cold-start.mjs\`) on ${start.date.slice(0, 10)}, ${machine.cores} cores, load average ${machine.loadAverageAtStart.join(' / ')} at the start: ${settings.runs} cold runs, each a fresh \`node\` process; medians, with the range in brackets. A start is \`dist/src/cli.js --port 0 --host 127.0.0.1 --quiet --db <a copy of a prepared ${links}-link db> --fixtures <its fixtures>\` (no seeding), timed from \`spawn\` to its "listening on" line (and the CPU the process used until then, from \`/proc/<pid>/stat\`: less inflated than wall time by other work on the machine) and to its first API answer (\`POST /links\` with \`{}\` as demo-key, a 400 from the validator, which prepares the contract before its first request). Node's own start (\`node -e 0\`), the floor under every figure: ${ms(start.node)}.${start.builds.length > 1 ? ' The builds alternate run by run (`BENCH_START_OTHER=<git ref or build dir>`), so that both meet the same machine.' : ''}

${table(['build', '--version', '--help', `listening (${links} links)`, 'CPU until listening', 'first API answer', 'CPU until that answer'], rows)}

${table(['target', 'measured', 'verdict'], [
  ['`--version` under 300 ms (median)', ms(first.version), `**${verdict(first.version, TARGETS.version)}**`],
  [`a start on ${links} links listening under 1 s (median)`, ms(first.listening), `**${verdict(first.listening, TARGETS.listening)}**`],
  [`… and its first API answer under 1 s (median; stricter than the target)`, ms(first.firstAnswer), `**${verdict(first.firstAnswer, TARGETS.listening)}**`],
])}
`;
}
