// Vitest globalSetup: one mock for the whole run, started in Vitest's own process before any test
// file and stopped after the last. Test files find it with inject('mockUrl').
// vitest.config.ts: test: { globalSetup: ['./vitest-global-setup.ts'] }
import { startMock } from 'shortlink-mock';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const mock = await startMock(); // a free port, data in memory
  project.provide('mockUrl', mock.url);
  return () => mock.stop();
}
