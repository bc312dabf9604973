// What the numbers were measured on.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

export function machineInfo(dataDir) {
  const cpuinfo = safe(() => readFileSync('/proc/cpuinfo', 'utf8'), '');
  return {
    cpu: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism?.() ?? os.cpus().length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    dataFilesystem: safe(() => execFileSync('df', ['--output=fstype', dataDir], { encoding: 'utf8' }).trim().split('\n').at(-1).trim(), 'unknown'),
    loadAverageAtStart: os.loadavg().map((value) => Math.round(value * 100) / 100),
  };
}

function safe(read, fallback) {
  try {
    return read();
  } catch {
    return fallback;
  }
}
