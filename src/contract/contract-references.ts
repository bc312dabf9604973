// The `$ref`s of a user's contract: each must be local (start with '#': the mock has no network and
// reads no other file) and name something in the document, or the validator would fail on the first
// request instead of at start. One walk, bounded in values: YAML aliases share a node, so a small
// file can stand for a huge document (aliases of aliases), and every later copy would expand it.
import { MAX_CONTRACT_VALUES } from './contract-limits.js';
import type { OpenApiDocument } from '../core/contract-types.js';
import { escapePointer, valueAt } from '../core/schema-pointer.js';


/** The first problem of the document's `$ref`s, naming its pointer (and its line when the text shows it), or undefined. */
export function contractReferenceProblem(document: unknown, text: string): string | undefined {
  const stack: [unknown, string][] = [[document, '']];
  let values = 0;
  while (stack.length > 0) {
    const [value, pointer] = stack.pop() as [unknown, string];
    if (++values > MAX_CONTRACT_VALUES) return `it stands for more than ${MAX_CONTRACT_VALUES} values (YAML aliases expanded), the limit`;
    if (typeof value !== 'object' || value === null) continue;
    const ref = (value as Record<string, unknown>)['$ref'];
    if (typeof ref === 'string') {
      const problem = refProblem(document as OpenApiDocument, ref);
      if (problem) return `${lineOf(text, ref)}$ref '${ref}' at ${pointer || '/'} ${problem}`;
    }
    const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, item] = entries[index] as readonly [string, unknown];
      stack.push([item, `${pointer}/${escapePointer(key)}`]);
    }
  }
  return undefined;
}

function refProblem(document: OpenApiDocument, ref: string): string | undefined {
  if (!ref.startsWith('#')) return 'is not local: only references within the file (starting with #) are served, the mock reads no other file or URL';
  return valueAt(document, ref.slice(1)) === undefined ? 'names nothing in the file' : undefined;
}

/** `line L, column C: ` of the first `$ref: <ref>` the text shows (YAML or JSON), or nothing when none. */
function lineOf(text: string, ref: string): string {
  const at = new RegExp(`["']?\\$ref["']?\\s*:\\s*["']?${ref.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).exec(text)?.index ?? -1;
  if (at < 0) return '';
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return `line ${line}, column ${at - before.lastIndexOf('\n')}: `;
}
