// `shortlink-mock pact <export|check>`: Pact files out of the mock's journal, and consumers' Pact
// files checked against openapi.yaml. Each subcommand loads its own module on demand. Called by
// src/cli.ts with the process's environment.

export interface PactIo {
  out: (text: string) => void;
  err: (text: string) => void;
}
const consoleIo: PactIo = { out: (text) => console.log(text), err: (text) => console.error(text) };

const USAGE = `Usage: shortlink-mock pact <export|check> [options]   (see pact <subcommand> --help)

Subcommands:
  export    write a Pact file (V3) from a running mock's journal, with provider states the mock sets up again
  check     check a consumer's Pact file against openapi.yaml, locally`;

type Runner = (argv: readonly string[], env: NodeJS.ProcessEnv, io: PactIo) => Promise<number>;

const SUBCOMMANDS: Record<string, () => Promise<Runner>> = {
  export: async () => (await import('../pact/export-command.js')).runPactExport,
  check: async () => (await import('../pact/check-command.js')).runPactCheck,
};

export async function runPactCommand(argv: readonly string[], env: NodeJS.ProcessEnv, io: PactIo = consoleIo): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand === '--help' || subcommand === '-h') return (io.out(USAGE), 0);
  const load = subcommand !== undefined && Object.hasOwn(SUBCOMMANDS, subcommand) ? SUBCOMMANDS[subcommand] : undefined;
  if (!load) {
    io.err(`shortlink-mock pact: ${subcommand === undefined ? 'a subcommand is required' : `unknown subcommand '${subcommand}'`}\n\n${USAGE}`);
    return 2;
  }
  return (await load())(rest, env, io);
}
