// `shortlink-mock coverage --base-url URL`: the error-path coverage of a running mock as a table:
// which documented outcomes each key's client has met, and which it has never met.
import { parseArgs } from 'node:util';
import { ADMIN_TOKEN_HEADER } from '../admin/admin-token.js';

interface Outcome {
  operationId: string;
  status: number;
  code: string | null;
  count?: number;
}

interface CoverageReport {
  documented: Outcome[];
  accounts: { apiKey: string | null; seen: Outcome[]; missing: Outcome[] }[];
}

const USAGE = `Usage: shortlink-mock coverage --base-url URL [--account API_KEY] [--admin-token TOKEN]

Prints which documented outcomes (operation × status × error code) each API key's client has
been answered with by a running mock, and which it has never met.`;

export async function runCoverageCommand(argv: readonly string[], env: Record<string, string | undefined>, out: (line: string) => void = console.log): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: [...argv], strict: true, options: { 'base-url': { type: 'string' }, account: { type: 'string' }, 'admin-token': { type: 'string' }, help: { type: 'boolean' } } }).values;
  } catch (error) {
    out(`shortlink-mock coverage: ${(error as Error).message.split('\n')[0]} (see --help)`);
    return 2;
  }
  if (values['help']) {
    out(USAGE);
    return 0;
  }
  const baseUrl = (values['base-url'] as string | undefined) ?? env['MOCK_BASE_URL'] ?? 'http://127.0.0.1:4010';
  const token = (values['admin-token'] as string | undefined) ?? env['MOCK_ADMIN_TOKEN'];
  const account = values['account'] as string | undefined;
  const url = new URL('/__admin/coverage', baseUrl);
  if (account) url.searchParams.set('account', account);
  try {
    const response = await fetch(url, { headers: token ? { [ADMIN_TOKEN_HEADER]: token } : {} });
    if (!response.ok) {
      out(`shortlink-mock coverage: ${url.href} answered ${response.status}: ${await response.text()}`);
      return 1;
    }
    out(formatCoverage((await response.json()) as CoverageReport));
    return 0;
  } catch (error) {
    out(`shortlink-mock coverage: cannot reach ${url.href}: ${(error as Error).message}`);
    return 1;
  }
}

const label = (outcome: Outcome): string => `${outcome.operationId} ${outcome.status}${outcome.code ? ` ${outcome.code}` : ''}`;
const same = (a: Outcome, b: Outcome): boolean => a.operationId === b.operationId && a.status === b.status && a.code === b.code;

export function formatCoverage(report: CoverageReport): string {
  if (report.accounts.length === 0) return 'No API requests seen yet: nothing is covered.';
  const keys = report.accounts.map((account) => account.apiKey ?? '(no key)');
  const width = Math.max(...report.documented.map((outcome) => label(outcome).length), 'outcome'.length) + 2;
  const columns = keys.map((key) => Math.max(key.length, 8) + 2);
  const row = (first: string, cells: string[]): string => first.padEnd(width) + cells.map((cell, i) => cell.padEnd(columns[i] ?? 10)).join('').trimEnd();
  const lines = ['Documented outcomes met by each API key (×N: answered N times; never: not yet)', '', row('outcome', keys)];
  for (const outcome of report.documented) {
    lines.push(row(label(outcome), report.accounts.map((account) => {
      const seen = account.seen.find((candidate) => same(candidate, outcome));
      return seen ? `×${seen.count ?? 1}` : 'never';
    })));
  }
  lines.push('');
  for (const account of report.accounts) {
    const missing = account.missing.map(label);
    lines.push(`${account.apiKey ?? '(no key)'}: ${missing.length === 0 ? 'every documented outcome met' : `never met ${missing.length}: ${missing.join(', ')}`}`);
  }
  return lines.join('\n');
}
