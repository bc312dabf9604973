// The word a typo most likely meant, for "did you mean …?" in refusals: the CLI's flags and
// commands (src/process/parse-flags.ts) and the scenario names (src/core/scenario-registry.ts) use the one
// rule, so a near miss gets the same guess wherever it is typed. Runs only on a refusal.
import { closestMatch } from 'leven';

/**
 * The closest candidate within two edits, or within a third of the word's length for long words
 * (`--journalsize`, `--cors-origins`), and never by replacing the whole word (`x` is not a typo of
 * `db`); undefined when none is near.
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const target = word.toLowerCase();
  const maxDistance = Math.min(Math.max(2, Math.floor(target.length / 3)), target.length - 1);
  return closestMatch(target, candidates, { maxDistance });
}
