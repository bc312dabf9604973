// Processes a test started, by PID: whether one still runs, and what runs below one (Linux /proc),
// so a test can prove a stop left nothing behind and stop what did, by PID.
import { readdirSync, readFileSync } from 'node:fs';

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The processes below `root`, found through each one's parent PID (at most 100). */
export function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // After "pid (comm) state ppid": comm may hold spaces, so read past its last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  for (let layer = [root]; layer.length > 0 && found.length < 100; ) {
    layer = [...parents].filter(([, parent]) => layer.includes(parent)).map(([pid]) => pid);
    found.push(...layer);
  }
  return found;
}
