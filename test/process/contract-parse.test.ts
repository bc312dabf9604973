// The contracts are parsed at start-up with js-yaml's core schema (src/contract/package-files.ts), which is
// several times faster cold than `yaml`: the documents must be exactly those `yaml` reads, so that
// the switch changes what the mock validates in no way. And the admin document's text, written
// from its document, is written only when it is served.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ADMIN_CONTRACT_FILE, CONTRACT_FILE, readAdminContract, readContract } from '../../src/contract/package-files.js';

describe('the contracts as parsed at start-up', () => {
  it.each([CONTRACT_FILE, ADMIN_CONTRACT_FILE])('%s: the same document as yaml parses', (file) => {
    expect(readContract(file).document).toStrictEqual(parse(readFileSync(file, 'utf8')));
  });

  it("the admin document's text reads back as its document", () => {
    const admin = readAdminContract();
    expect(parse(admin.text)).toStrictEqual(admin.document);
  });
});
