// The contracts are parsed with js-yaml's core schema (src/contract/contract-yaml.ts), which is
// several times faster cold than `yaml`: the documents must be exactly those `yaml` reads, so that
// the switch changes what the mock validates in no way. The package's own two contracts are not
// parsed at a start: their documents are kept by the SHA-256 of their text
// (src/contract/parsed-contracts.ts); this fails when a contract changed and `npm run gen:contracts`
// was forgotten (the start would still be right, only slower). And the admin document's text,
// written from its document, is written only when it is served.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadWithJsYaml, parseContractYaml } from '../../src/contract/contract-yaml.js';
import { ADMIN_CONTRACT_FILE, CONTRACT_FILE, readAdminContract, readContract } from '../../src/contract/package-files.js';
import { PARSED_CONTRACTS } from '../../src/contract/parsed-contracts.js';
import { textDigest } from '../../src/contract/text-digest.js';
import { PARSED_CONTRACTS_FILE, renderParsedContracts } from '../helpers/parsed-contracts.js';

describe('the contracts as parsed at start-up', () => {
  it.each([CONTRACT_FILE, ADMIN_CONTRACT_FILE])('%s: the same document as yaml parses, by js-yaml and from the kept value', (file) => {
    const text = readFileSync(file, 'utf8');
    expect(PARSED_CONTRACTS[textDigest(text)]).toBeDefined();
    expect(loadWithJsYaml(text)).toStrictEqual(parse(text));
    expect(readContract(file).document).toStrictEqual(parse(text));
  });

  it('src/contract/parsed-contracts.ts is what gen:contracts writes today', () => {
    expect(readFileSync(PARSED_CONTRACTS_FILE, 'utf8'), 'run `npm run gen:contracts` and commit the result').toBe(renderParsedContracts());
  });

  it('a text it does not know (a comment added) is parsed by js-yaml, errors included', () => {
    const edited = `${readFileSync(CONTRACT_FILE, 'utf8')}\n# edited\n`;
    expect(PARSED_CONTRACTS[textDigest(edited)]).toBeUndefined();
    expect(parseContractYaml(edited)).toStrictEqual(parse(edited));
    expect(() => parseContractYaml('openapi: [unclosed')).toThrow(/unexpected end|flow collection/i);
  });

  it('each read gives a document of its own (a caller may change it)', () => {
    const first = readContract().document;
    expect(readContract().document).not.toBe(first);
    expect(readContract().document).toStrictEqual(first);
  });

  it("the admin document's text reads back as its document", () => {
    const admin = readAdminContract();
    expect(parse(admin.text)).toStrictEqual(admin.document);
  });
});
