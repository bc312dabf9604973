// Visits by Host (src/http/redirects.ts): only a GET of /<slug> can be one; every other request
// passes on in the same call, without the promise of an async step (a create pays nothing for it).
import type { NextFunction, Request, Response } from 'express';
import { expect, test } from 'vitest';
import { redirectByHost } from '../../src/http/redirects.js';
import type { LinkService } from '../../src/core/links.js';

test('a request that cannot be a visit passes on at once: no promise, no store read', () => {
  let reads = 0;
  const service = { store: { domainByName: () => ((reads += 1), undefined) } } as unknown as LinkService;
  const step = redirectByHost(service);
  for (const [method, path] of [['POST', '/links'], ['PUT', '/abc'], ['GET', '/links/lnk_1'], ['DELETE', '/abc']] as const) {
    let passed = 0;
    const result: unknown = step({ method, path, hostname: 'short.test' } as Request, {} as Response, (() => (passed += 1)) as NextFunction);
    expect({ method, path, passed, promise: result instanceof Promise }).toEqual({ method, path, passed: 1, promise: false });
  }
  expect(reads).toBe(0);
});
