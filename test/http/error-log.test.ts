// What the log says when the mock answers 500: one line for a failure it explains itself (a full
// disk), the stack only for the unexpected, and never the same message twice.
import { describe, expect, test } from 'vitest';
import type { StoreOp } from '../../src/core/changes.js';
import { memoryStore, type DataStore } from '../../src/store/file/data-store.js';
import { createTestApp, DEMO } from '../helpers/test-app.js';

const link = { tags: [], destinationUrl: 'https://example.com', domain: 'short.test' };

function fullDisk(): { store: DataStore; fill: () => void } {
  const base = memoryStore();
  let full = false;
  const store: DataStore = {
    ...base,
    write: async (ops: readonly StoreOp[]) => {
      if (full) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      return base.write(ops);
    },
  };
  return { store, fill: () => (full = true) };
}

describe('the log of a 500', () => {
  test('a change the full disk refused is one line per request, naming the cause once', async () => {
    const lines: string[] = [];
    const disk = fullDisk();
    const t = await createTestApp({ store: disk.store, log: (line) => lines.push(line), logRequests: false });
    disk.fill();
    for (let i = 0; i < 3; i++) expect((await t.request.post('/links').set('x-api-key', DEMO).send(link)).status).toBe(500);
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).not.toContain('\n');
      expect(line).toMatch(/^INTERNAL ERROR answering POST \/links: the change could not be saved.*ENOSPC/);
      expect(line.split('ENOSPC').length - 1).toBe(1);
    }
  });

  test('an unexpected error keeps its stack, without repeating the message', async () => {
    const lines: string[] = [];
    const t = await createTestApp({
      log: (line) => lines.push(line),
      logRequests: false,
      handlers: { createLink: () => Promise.reject(new TypeError('boom in a handler')) },
    });
    expect((await t.request.post('/links').set('x-api-key', DEMO).send(link)).status).toBe(500);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^INTERNAL ERROR answering POST \/links: internal error: boom in a handler\n\s+at /);
    expect(lines[0]?.split('boom in a handler').length).toBe(2);
  });
});
