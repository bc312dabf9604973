// Profiles the mock under one workload: seeds a store of N links, starts the built CLI with
// `node --cpu-prof`, drives it with autocannon (50 connections), stops it with SIGTERM and prints
// where the CPU time went, by function (self time) and by package (inclusive).
//   node bench/profile.mjs [workload=create] [links=1000] [seconds=8]
//   node bench/profile.mjs [workload] [links] [seconds] --baseline   (the bare Express baseline instead)
//   node bench/profile.mjs FILE.cpuprofile      (prints an existing profile)
// The .cpuprofile file is kept (path printed) for Chrome DevTools.
import autocannon from 'autocannon';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { autocannonOptions } from './lib/workloads.mjs';
import { baselineCommand, mockCommand, startServer, stopChildrenOnSignals, stopServer } from './lib/processes.mjs';
import { copyStore, prepareStore } from './lib/stores.mjs';

const baseline = process.argv.includes('--baseline');
const [workload = 'create', links = '1000', seconds = '8'] = process.argv.slice(2).filter((arg) => arg !== '--baseline');
if (workload.endsWith('.cpuprofile')) {
  printProfile(JSON.parse(readFileSync(workload, 'utf8')));
  process.exit(0);
}
const tmp = mkdtempSync(join(tmpdir(), 'slm-profile-'));
stopChildrenOnSignals();

const store = await prepareStore(tmp, Number(links));
const { db } = copyStore(store, 'profiled');
const profileDir = join(tmp, 'profile');
const command = baseline ? baselineCommand() : mockCommand({ db, fixtures: store.fixtures });
command.args = ['--cpu-prof', '--cpu-prof-dir', profileDir, ...command.args];
const server = await startServer(command);
const result = await autocannon(autocannonOptions(workload, server.url, Number(seconds)));
await stopServer(server);
console.log(`${baseline ? 'baseline' : 'mock'} ${workload} @${links}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`);

const file = join(profileDir, readdirSync(profileDir)[0]);
console.log(`profile: ${file}\n`);
printProfile(JSON.parse(readFileSync(file, 'utf8')));

function printProfile(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfTime = new Map();
  profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const idle = [...selfTime].filter(([id]) => nodes.get(id).callFrame.functionName === '(idle)').reduce((sum, [, t]) => sum + t, 0);
  const busy = [...selfTime.values()].reduce((a, b) => a + b, 0) - idle;
  const share = (t) => `${((t / busy) * 100).toFixed(1).padStart(5)}%`;
  const byFunction = new Map();
  const byPackage = new Map();
  const selfByPackage = new Map();
  for (const [id, t] of selfTime) {
    const frame = nodes.get(id).callFrame;
    if (frame.functionName === '(idle)') continue;
    const key = `${frame.functionName || '(anonymous)'} ${place(frame.url)}:${frame.lineNumber}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + t);
    const own = packageOf(frame);
    selfByPackage.set(own, (selfByPackage.get(own) ?? 0) + t);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const pkg = packageOf(nodes.get(cur).callFrame);
      if (!seen.has(pkg)) byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + t);
      seen.add(pkg);
    }
  }
  console.log(`busy ${(busy / 1000).toFixed(0)} ms, idle ${((idle / (busy + idle)) * 100).toFixed(0)}% of the profile\n-- self time, top 30`);
  for (const [key, t] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(share(t), key);
  console.log('-- self time, by package or file');
  for (const [key, t] of [...selfByPackage].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(share(t), key);
  console.log('-- inclusive, by package or file (a middleware chain nests: read with care)');
  for (const [key, t] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(share(t), key);
}

function place(url) {
  return url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/');
}

function packageOf(frame) {
  const match = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(frame.url);
  if (match) return match[1];
  if (frame.url.includes('/dist/')) return `ours: ${frame.url.split('/dist/')[1]}`;
  if (frame.url.startsWith('node:')) return frame.url;
  return frame.functionName || '(anonymous)';
}
