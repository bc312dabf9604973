// A subcommand's value: its flag, else its environment twin, with where it came from, so that a
// refusal names what the user set (a stale variable is not blamed on a flag nobody typed). Shared
// by the commands that read the mock through its admin API (src/toolkit/admin-flags.ts) and the
// contract suite's command (src/contract/command-flags.ts). The environment is handed in by the
// CLI; nothing here reads the process's.

/** A value and where it came from: `--flag`, or its variable's name when the flag was not given. */
export interface Given {
  value: string;
  from: string;
}

/** The flag's value (`flagValue`, as parsed), else `env[envName]`, trimmed; undefined when neither; a blank one is refused with `refuse`'s error. */
export function flagOrEnv(flagValue: unknown, flag: string, env: Readonly<Record<string, string | undefined>>, envName: string | undefined, refuse: (message: string) => Error): Given | undefined {
  const [value, from] = typeof flagValue === 'string' ? [flagValue, `--${flag}`] : [envName === undefined ? undefined : env[envName], envName];
  if (value === undefined || from === undefined) return undefined;
  if (value.trim() === '') throw refuse(`${from} must not be empty`);
  return { value: value.trim(), from };
}
