// Runs the Pact Verifier in a process of its own (test/helpers/pact-verifier.ts): the verifier is
// native code that prints its report straight to the process's stdout, where a test cannot catch it.
// The options come as JSON in argv[2]; exit 0 when the pact verified, 1 when it did not.
import { Verifier } from '@pact-foundation/pact';

try {
  await new Verifier(JSON.parse(process.argv[2])).verifyProvider();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
