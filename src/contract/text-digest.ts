// The SHA-256 of a text, in hex: the key under which the package's own files' parsed values are
// kept (src/contract/contract-yaml.ts, src/scenarios/scenario-yaml.ts).
import { createHash } from 'node:crypto';

export function textDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
