// The error of a start-up step that refuses a configuration or cannot touch a file: the CLI prints
// its one-line message and exits with code 2. Apart from startup.ts so that local-db.ts, which
// startup.ts imports, can throw it too.
export class StartupError extends Error {
  override name = 'StartupError';
}
