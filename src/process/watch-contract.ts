// --watch with --contract FILE: an edit of FILE is read, checked and classified as at start
// (kept-files.ts), the scenarios are checked against it, and the mock's contract is swapped in one
// step (mock.prepareContract): the validator, /openapi.yaml, the classification, the generated
// fields and answers, GET /__admin/contract. A request already in flight finishes on the app, and so
// the contract, it started on. An edit the mock cannot serve keeps the running contract and says
// why in one line. The same shape as the scenarios' watcher (src/scenarios/watch-scenarios.ts): the
// folder is watched (an editor that saves by renaming replaces the file watched), bursts of events
// share one reload. With --workers each worker watches and reloads for itself.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { ServedContract } from '../admin/contract-routes.js';
import { SETTLE_MS } from '../scenarios/watch-scenarios.js';
import type { KeptContract } from './kept-files.js';
import type { Mock } from './mock.js';
import { contractChanges } from './served-lines.js';

export interface ContractReload {
  /** FILE as the user gave it (--contract). */
  file: string;
  /** FILE read and checked as at start; throws a StartupError (its lines name the problems and how FILE was given). */
  read: () => KeptContract;
  /** The scenarios checked against the new contract's rules: the function that serves them (throws when one is refused). */
  scenariosFor: (next: KeptContract) => () => Promise<unknown>;
}

export function watchContract(reload: ContractReload, mock: Mock, initial: KeptContract, log: (line: string) => void): FSWatcher {
  let current = initial;
  let timer: NodeJS.Timeout | undefined;
  let reloads = Promise.resolve();
  const run = async (): Promise<void> => {
    timer = undefined;
    const before = mock.servedContract;
    try {
      const next = reload.read();
      // The same text (a save without a change, a second event of one save): nothing to swap.
      if (next === current) return;
      const serveScenarios = reload.scenariosFor(next);
      const swap = mock.prepareContract({ contract: next.contract, contractRules: next.rules, contractClasses: next.classes, contractFile: reload.file });
      await serveScenarios();
      swap();
      current = next;
      log(`contract reloaded: ${reload.file}: ${contractChanges(before, mock.servedContract)}`);
    } catch (error) {
      log(`contract NOT reloaded, keeping the running one${versionOf(before)}: ${oneLine((error as Error).message)}`);
    }
  };
  const name = basename(reload.file);
  const watcher = watch(dirname(reload.file), (_event, changed) => {
    // Some platforms do not name the file: then any change in the folder is read (an unchanged FILE is no reload).
    if (changed !== null && changed !== name) return;
    if (timer) clearTimeout(timer);
    // One reload at a time: an edit that settles while the last one is still swapping waits for it.
    timer = setTimeout(() => (reloads = reloads.then(run)), SETTLE_MS);
  });
  watcher.unref();
  // A stop closes the watcher: an edit settling then is not read into a closed mock.
  watcher.once('close', () => clearTimeout(timer));
  return watcher;
}

function versionOf(served: ServedContract): string {
  return served.version ? ` (version ${served.version})` : '';
}

/** A refusal may name several changes, one a line: joined, so that the log holds one line per refused edit. */
function oneLine(message: string): string {
  return message.split('\n').join('; ');
}
