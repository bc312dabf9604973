// The word a typo most likely meant, for "did you mean …?" in refusals: the CLI's flags and
// commands (src/core/parse-flags.ts) and the scenario names (src/core/scenario-registry.ts) use the one
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

/**
 * The tail of a refusal of an unknown name: the near miss when there is one, then the names known
 * (`; did you mean 'slow'? (known: …)`, else `; known: …`). One wording for the admin API, the
 * x-mock-scenario header and the --scenario flag, so a typo reads the same wherever it is made.
 */
export function guessAndKnown(word: string, names: readonly string[], label = 'known'): string {
  const guess = nearest(word, names);
  const known = names.join(', ') || 'none';
  return guess ? `; did you mean '${guess}'? (${label}: ${known})` : `; ${label}: ${known}`;
}
