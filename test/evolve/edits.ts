// The planted edits of test/fixtures/evolve/: each file a list of JSON Patch operations (add,
// replace, remove) on the shipped openapi.yaml, written out as a NEXT contract of version 0.0.3.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { readContract } from '../../src/contract/package-files.js';

export const EDITS_DIR = join(import.meta.dirname, '..', 'fixtures', 'evolve');

interface Operation {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

export interface Edit {
  name: string;
  title: string;
  ops: Operation[];
}

export function edits(): Edit[] {
  return readdirSync(EDITS_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ name: file.replace(/\.json$/, ''), ...(JSON.parse(readFileSync(join(EDITS_DIR, file), 'utf8')) as Omit<Edit, 'name'>) }));
}

/** NEXT for the edit, written in `dir`; its path. */
export function writeNext(edit: Edit, dir: string): string {
  const document = structuredClone(readContract().document) as Record<string, unknown>;
  (document['info'] as { version: string }).version = '0.0.3';
  for (const operation of edit.ops) apply(document, operation);
  const file = join(dir, `${edit.name}.yaml`);
  writeFileSync(file, stringify(document));
  return file;
}

function apply(document: Record<string, unknown>, { op, path, value }: Operation): void {
  const parts = path.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = parts.pop() ?? '';
  const parent = parts.reduce<Record<string, unknown>>((node, key) => {
    const child = node[key];
    if (typeof child !== 'object' || child === null) throw new Error(`${path}: no ${key}`);
    return child as Record<string, unknown>;
  }, document);
  if (Array.isArray(parent) && last === '-') parent.push(value);
  else if (op === 'remove') {
    if (!(last in parent)) throw new Error(`${path}: nothing to remove`);
    delete parent[last];
  } else {
    if (op === 'replace' && !(last in parent)) throw new Error(`${path}: nothing to replace`);
    parent[last] = value;
  }
}
