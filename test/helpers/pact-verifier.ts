// The Pact Verifier, with its report captured rather than printed: a test that expects a pact to
// fail would otherwise print a red "has a matching body (FAILED)" in a passing run's log. The
// report is returned, for the test to assert on and to show when its expectation fails.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { VerifierOptions } from '@pact-foundation/pact';

const CHILD = fileURLToPath(new URL('./pact-verify-child.mjs', import.meta.url));
const VERIFY_LIMIT_MS = 60_000;

export interface Verification {
  verified: boolean;
  /** What the verifier printed (stdout, then stderr). */
  report: string;
}

/** Plain data only: the options cross to the other process as JSON. */
export type PactVerifyOptions = Pick<VerifierOptions, 'provider' | 'providerBaseUrl' | 'pactUrls' | 'providerStatesSetupUrl' | 'logLevel'>;

export function verifyPact(options: PactVerifyOptions): Promise<Verification> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CHILD, JSON.stringify(options)], { timeout: VERIFY_LIMIT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const report = `${stdout}${stderr}`;
      // Exit 1 is the verdict; anything else (killed at the time limit, a crash) is the test's failure.
      if (error && error.code !== 1) return reject(new Error(`the Pact Verifier did not finish (${error.message}):\n${report}`));
      resolve({ verified: !error, report });
    });
  });
}
