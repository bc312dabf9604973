// The hand-written pacts of test/pact/fixtures, read afresh for each test (tests edit them).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A pact as loosely typed JSON, so that a test can change any field of it. */
export type PactJson = Record<string, any>;

export const fixturePath = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

export const fixture = (name: string): PactJson => JSON.parse(readFileSync(fixturePath(name), 'utf8')) as PactJson;
