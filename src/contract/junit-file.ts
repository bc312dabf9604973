// Writing a --junit FILE at the end of a command, the same for every command that offers one:
// missing directories are created (CI's `--junit reports/x.xml`), and a failure is one line on
// stderr instead of a stack. junit-path.ts checks the path before the work starts.
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { makeDirectories } from './make-directories.js';

export interface JUnitIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Writes the XML; false (and one line on stderr, prefixed with `command`) when it cannot. */
export function writeJUnitFile(file: string, xml: string, command: string, io: JUnitIo): boolean {
  return writeReportFile({ file, text: xml, flag: '--junit', label: 'JUnit' }, command, io);
}

/** A report of another format (robustness --json): the same rules as the JUnit file. */
export function writeReportFile(report: { file: string; text: string; flag: string; label: string }, command: string, io: JUnitIo): boolean {
  try {
    makeDirectories(dirname(resolve(report.file)));
    writeFileSync(resolve(report.file), report.text);
    io.out(`${report.label} report written to ${resolve(report.file)}`);
    return true;
  } catch (error) {
    io.err(`${command}: cannot write ${report.flag} ${report.file}: ${(error as Error).message}`);
    return false;
  }
}
