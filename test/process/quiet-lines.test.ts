// --quiet drops the line per request and keeps every line about something going wrong, as
// docs/options.md and docs/proxy.md promise. A bounds sweep (stop 53) found the proxy's
// CLIENT TOO SLOW line dropped with --quiet; the lines here are the shapes the mock prints.
import { describe, expect, it } from 'vitest';
import { keptWhenQuiet } from '../../src/process/quiet-lines.js';

describe('the log with --quiet', () => {
  it.each([
    'CONTRACT VIOLATION POST /links → upstream 201: response body: missing required field \'id\'',
    'INTERNAL ERROR writing the db: ENOSPC: no space left on device',
    'UPSTREAM ERROR POST /links: the upstream http://127.0.0.1:9/links gave no answer: connection refused (ECONNREFUSED)',
    'CLIENT TOO SLOW GET /links/lnk_1: its answer was not taken within 3000 ms (--proxy-timeout); the connection is reset',
  ])('keeps %s', (line) => {
    expect(keptWhenQuiet(line)).toBe(true);
  });

  it.each(['POST /links 201 2.1 ms', 'GET /__admin/health 200 0.4 ms', 'PUT /links/CLIENT 404 1 ms'])('drops the request line %s', (line) => {
    expect(keptWhenQuiet(line)).toBe(false);
  });
});
