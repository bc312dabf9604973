// startMock(): a mock in this process, started by the same code as the CLI (startFromConfig in
// src/process/startup.ts) and controlled, like any other mock, through its admin API (control.ts).
import { removeReadyFile, requireSafeAdmin, startFromConfig, stopStarted, writeReadyFile } from '../process/startup.js';
import { AdminClient } from './admin-client.js';
import { controlOf, type MockControl } from './control.js';
import { handleOptionsOf } from './handle-options.js';
import { configOf, inOptionTerms, type StartMockOptions } from './start-options.js';
import { refuseUnknownDimensions } from './variety-option.js';

/** A mock running in this process. */
export interface RunningMock extends MockControl {
  /**
   * Stops taking requests, lets those in flight finish, writes every acknowledged change and
   * frees the port. Calling it again returns the same promise.
   */
  stop(): Promise<void>;
}

/**
 * Starts a mock in this process: port 0 (a free one) and an in-memory store unless told
 * otherwise. Refuses a bad option with a ConfigError or a StartupError naming the option.
 *
 * @example
 * const mock = await startMock();
 * await fetch(`${mock.url}/links`, { method: 'POST', headers: { 'x-api-key': mock.apiKeys.demoKey, ... }, ... });
 * await mock.stop();
 */
export async function startMock(options: StartMockOptions = {}): Promise<RunningMock> {
  const config = configOf(options);
  const { log, timeoutMs, stopGraceMs } = handleOptionsOf(options);
  const started = await inOptionTermsOnError(async () => {
    requireSafeAdmin(config);
    refuseUnknownDimensions(config, options.variety);
    removeReadyFile(config);
    return startFromConfig(config, log);
  });
  try {
    await inOptionTermsOnError(async () => writeReadyFile(config, started.url));
  } catch (error) {
    await stopStarted(started, 0); // nothing may stay listening after a refused start
    throw error;
  }
  const client = new AdminClient(started.url, { adminToken: config.adminToken, timeoutMs });
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      removeReadyFile(config);
      await stopStarted(started, stopGraceMs);
    })());
  const control = controlOf(client);
  // The dimensions a start chose: set now, before the caller's first request (the flag takes a seed only).
  const { variety } = options;
  if (variety && (variety.only || variety.except)) await control.useVariety(variety.seed, { ...(variety.only ? { only: variety.only } : {}), ...(variety.except ? { except: variety.except } : {}) }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { ...control, stop };
}

/** Start-up refusals name CLI flags (`set --admin-token`); here the caller wrote options. */
async function inOptionTermsOnError<T>(start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if (error instanceof Error && error.name === 'StartupError') error.message = `startMock: ${inOptionTerms(error.message)}`;
    throw error;
  }
}
