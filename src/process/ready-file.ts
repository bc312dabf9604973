// --ready-file: the file that announces a listening mock's URL, written when it listens and removed
// before the start and on a stop. A refusal names --ready-file or its variable (named-refusal.ts).
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Config } from './config.js';
import { namingOption } from './named-refusal.js';
import { StartupError } from './startup-error.js';

/**
 * The ready file (--ready-file; none: nothing to do) holds the URL of a mock that is listening, so a
 * script waits for this very mock instead of whatever answers on a port. Written beside and
 * renamed: a reader never sees half a URL.
 */
export function writeReadyFile(config: Config, url: string): void {
  const file = config.readyFile;
  if (file === undefined) return;
  const partial = `${file}.${process.pid}.tmp`;
  namingOption(config, 'ready-file', () => {
    try {
      writeFileSync(partial, `${url}\n`);
      renameSync(partial, file);
    } catch (error) {
      throw new StartupError(`cannot write the ready file ${file}: ${(error as Error).message}`);
    }
  });
}

/** Removed before start-up (a file left by an earlier run must not announce this one) and on a stop. */
export function removeReadyFile(config: Config): void {
  const file = config.readyFile;
  if (file === undefined) return;
  namingOption(config, 'ready-file', () => {
    try {
      rmSync(file, { force: true });
    } catch (error) {
      throw new StartupError(`cannot remove the ready file ${file}: ${(error as Error).message}`);
    }
  });
}
