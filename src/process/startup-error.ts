// The error of a start-up step that refuses a configuration or cannot touch a file: the CLI prints
// its one-line message and exits with code 2. Apart from startup.ts so that local-db.ts, which
// startup.ts imports, can throw it too.
export class StartupError extends Error {
  override name = 'StartupError';
}

/**
 * The refusals a start-up makes, each one line and exit code 2, by name: the store's own
 * (DataFileError, RedisStartError) live in modules --help and --version never load.
 */
export const REFUSAL_NAMES: readonly string[] = ['StartupError', 'DataFileError', 'RedisStartError'];

export function isRefusal(error: unknown): error is Error {
  return error instanceof Error && REFUSAL_NAMES.includes(error.name);
}
