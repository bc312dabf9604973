// The options of startMock() that the CLI has no flag for, because they are about the handle and
// not the mock: where log lines go, the bound of each admin call, and stop()'s grace. Checked
// before anything starts, with the CLI's check of a whole number, so that a bad one is refused
// naming it instead of failing later (a negative timeout broke every control call).
import { ConfigError, integer } from '../process/option-values.js';
import { adminTimeoutMs } from './admin-client.js';

/** How long stop() lets requests in flight finish by default. */
export const DEFAULT_STOP_GRACE_MS = 4_000;
/** The longest grace stop() takes: a test run waits on it, so it has a bound like every wait. */
export const MAX_STOP_GRACE_MS = 600_000;

/** The option names read here; start-options.ts knows the rest, and refuses any other name. */
export const HANDLE_OPTION_NAMES = ['log', 'timeoutMs', 'stopGraceMs'] as const;

export interface HandleOptions {
  log: (line: string) => void;
  timeoutMs: number;
  stopGraceMs: number;
}

/** The handle's options, checked and defaulted; a refusal is a ConfigError naming the option. */
export function handleOptionsOf(options: { log?: unknown; timeoutMs?: unknown; stopGraceMs?: unknown }): HandleOptions {
  const { log } = options;
  // A log that is not a function would throw at the mock's first line, long after the start.
  if (log !== undefined && typeof log !== 'function') throw new ConfigError(`startMock: options.log must be a function taking a line, got ${describe(log)}`);
  return {
    log: (log as HandleOptions['log'] | undefined) ?? ((line) => console.log(line)),
    timeoutMs: adminTimeoutMs('startMock: options.timeoutMs', wholeNumberOrText(options.timeoutMs)),
    // 0 is allowed: connections in flight are closed at once, as a refused start does.
    stopGraceMs: integer('startMock: options.stopGraceMs', wholeNumberOrText(options.stopGraceMs), DEFAULT_STOP_GRACE_MS, 0, MAX_STOP_GRACE_MS),
  };
}

/** A number or text as integer() reads them; any other kind is shown as it is, and refused there. */
function wholeNumberOrText(value: unknown): number | string | undefined {
  return value === undefined || typeof value === 'number' || typeof value === 'string' ? value : describe(value);
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : typeof value === 'function' ? 'a function' : String(JSON.stringify(value) ?? value);
}
