// Writing a --junit FILE at the end of a command, the same for every command that offers one:
// missing directories are created (CI's `--junit reports/x.xml`), and a failure is one line on
// stderr instead of a stack. junit-path.ts checks the path before the work starts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface JUnitIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Writes the XML; false (and one line on stderr, prefixed with `command`) when it cannot. */
export function writeJUnitFile(file: string, xml: string, command: string, io: JUnitIo): boolean {
  try {
    mkdirSync(dirname(resolve(file)), { recursive: true });
    writeFileSync(resolve(file), xml);
    io.out(`JUnit report written to ${resolve(file)}`);
    return true;
  } catch (error) {
    io.err(`${command}: cannot write --junit ${file}: ${(error as Error).message}`);
    return false;
  }
}
