// The server's CPU time per create (utime + stime of its process, /proc: all its threads, the
// collector's too) over a fixed number of creates, on a copy of a prepared db file, counting every
// compaction they start and waiting for it to end: a cost per create that a loaded machine changes
// far less than the rate of creates it reaches (issue 40: creates at 1,000,000 links against 1,000).
//   node bench/create-cpu.mjs <db.json> <fixtures.json> [creates=48000]   (Linux: reads /proc)
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { mockCommand, startServer, stopChildrenOnSignals, stopServer } from './lib/processes.mjs';
import { autocannonOptions } from './lib/workloads.mjs';

const WARM_CREATES = 2_000;
const POLL_MS = 20;

const [source, fixtures, creates = '48000'] = process.argv.slice(2);
if (!source || !fixtures) throw new Error('usage: node bench/create-cpu.mjs <db.json> <fixtures.json> [creates]');
const tmp = mkdtempSync(join(tmpdir(), 'slm-create-cpu-'));
stopChildrenOnSignals(() => rmSync(tmp, { recursive: true, force: true }));
const db = join(tmp, 'db.json');
copyFileSync(source, db);
const aside = `${db}.changes.old`;
/** Milliseconds of CPU the process has used: fields 14 and 15 of /proc/<pid>/stat, in ticks of 10 ms. */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const sleep = () => new Promise((resolve) => setTimeout(resolve, POLL_MS));
const load = (server, amount) =>
  new Promise((resolve, reject) => {
    const { duration: _duration, ...options } = autocannonOptions('create', server.url, 1);
    autocannon({ ...options, amount }, (error, result) => (error ? reject(error) : resolve(result)));
  });
let server;
try {
  server = await startServer(mockCommand({ db, fixtures }), { timeoutMs: 900_000 });
  await load(server, WARM_CREATES);
  while (existsSync(aside)) await sleep();
  const before = cpuMs(server.pid);
  let compactions = 0;
  let seen = false;
  const watch = setInterval(() => {
    const now = existsSync(aside);
    if (now && !seen) compactions += 1;
    seen = now;
  }, POLL_MS);
  const result = await load(server, Number(creates));
  while (existsSync(aside)) await sleep();
  clearInterval(watch);
  const cpu = cpuMs(server.pid) - before;
  const log = existsSync(`${db}.changes`) ? statSync(`${db}.changes`).size : 0;
  console.log(JSON.stringify({ creates: result.requests.total, created: result['2xx'], cpuMs: cpu, cpuUsPerCreate: Math.round((1000 * cpu) / result.requests.total), compactions, logMiB: Math.round(log / 1048576) }));
} finally {
  await stopServer(server, 120_000);
  rmSync(tmp, { recursive: true, force: true });
}
