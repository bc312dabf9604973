// Issue 38, part 5 (partly): `shortlink-mock contract --contract FILE` checks a server against FILE,
// and the suite passes against a mock started with the same FILE; a FILE the mock would refuse is
// refused by the command too (exit 2), before any request.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatContractReport, runContract, startMock } from '../../src/index.js';
import { runCli } from '../helpers/cli-process.js';
import { nextContractFile } from '../helpers/next-contract-app.js';
import { fixtureSuiteOptions } from '../helpers/suite-options.js';

describe('the contract suite against FILE', () => {
  it.each(['slug-max-20.yaml', 'required-field.yaml', 'list-links.yaml', 'stats-added.yaml', 'expires-at.yaml', 'get-link.yaml', 'title-removed.yaml', 'enum-value-added.yaml', 'status-added.yaml', 'title-nullable.yaml', 'openapi-3.1.yaml'])('%s: passes against a mock started with the same FILE', { timeout: 120_000 }, async (name) => {
    const contract = nextContractFile(name);
    const mock = await startMock({ contract });
    try {
      const report = await runContract(await fixtureSuiteOptions(mock, { contract, fuzzRuns: 10, seed: 38 }));
      expect(report.contract).toContain('0.0.3');
      expect(report.results.filter((result) => result.outcome.status !== 'passed'), formatContractReport(report)).toEqual([]);
    } finally {
      await mock.stop();
    }
  });

  it('a FILE the mock would refuse: exit 2, one line, no request sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slm-contract-file-'));
    try {
      const file = nextContractFile('remote-ref.yaml');
      const result = await runCli(['contract', '--base-url', 'http://127.0.0.1:9', '--api-key', 'demo-key', '--contract', file], dir);
      expect(result.code).toBe(2);
      expect(result.stderr.trimEnd()).toMatch(new RegExp(`^shortlink-mock contract: cannot check against --contract ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: line 309, column 11: \\$ref 'https://schemas\\.example\\.com/.*is not local`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
