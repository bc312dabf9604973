// The environment of a child process that talks to nothing but this machine's loopback, over plain
// HTTP: the CLI under test, a runner of the examples (Vitest, node:test, Playwright), the suite run
// as CI runs it, a robustness client. It is the given one without NODE_EXTRA_CA_CERTS: Node reads
// and parses that bundle at every start, whether or not the process ever opens a TLS connection.
// On this repository's machine, which sets it to the system's 220 KB bundle (its network intercepts
// TLS), `node -e 0` took 74 ms of CPU with it and 28 ms without, and `shortlink-mock --version`
// 91 against 56 ms (26 Nov 2026); the suite starts a few hundred such processes. npm's installs
// (test/package/) keep it: they reach the registry.
export const EXTRA_CA_VARIABLE = 'NODE_EXTRA_CA_CERTS';

export function loopbackEnv<T extends Record<string, string | undefined>>(env: T): T {
  return Object.fromEntries(Object.entries(env).filter(([name]) => name !== EXTRA_CA_VARIABLE)) as T;
}
