// What a POSIX shell makes of a line the robustness report says to paste: the words the program it
// runs would get, read back by `sh` itself (printf prints each word NUL-ended, nothing expanded
// but what the shell would expand; HOME is set to a fixed value).
import { execFileSync } from 'node:child_process';

export function shellWords(line: string): string[] {
  const printed = execFileSync('sh', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8', env: { PATH: process.env['PATH'], HOME: '/nowhere' } });
  return printed.split('\0').slice(0, -1);
}
