// The README and the guides in docs/, as the tests that run their examples read them.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository's root, where README.md and docs/ are. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A markdown file of the repository by its path from the root: 'README.md', 'docs/options.md'. */
export function readMarkdown(path: string): string {
  return readFileSync(new URL(path, `file://${REPOSITORY_ROOT}`), 'utf8');
}

/** The README and every guide, README first, by their paths from the root. */
export function markdownFiles(): string[] {
  const guides = readdirSync(new URL('docs/', `file://${REPOSITORY_ROOT}`)).filter((name) => name.endsWith('.md')).sort();
  return ['README.md', ...guides.map((name) => `docs/${name}`)];
}
