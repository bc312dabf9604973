// What the proxy prints back or keeps as evidence holds no query value in clear (issue 37 A8): a
// refused --proxy URL (a refusal goes to CI logs) and the drift report's example path keep the
// names and mask every value, not only those of names that look secret (`sig`, `code`, `jwt`, `sid`
// were kept in clear). The end to end check of the drift report is in evidence.test.ts.
import { describe, expect, it } from 'vitest';
import { maskQueryValues } from '../../src/core/printable.js';
import { ConfigError, proxyUrl } from '../../src/process/option-values.js';

describe('maskQueryValues', () => {
  it.each([
    ['/links/abc', '/links/abc'],
    ['/nowhere?sig=S1&code=S2&jwt=S3&sid=S4', '/nowhere?sig=***&code=***&jwt=***&sid=***'],
    ['/a?apiKey=abc&page=2', '/a?apiKey=***&page=***'],
    // A value holding '=' is masked whole; a name without a value and an empty value have nothing to hide.
    ['/a?token=a=b==&flag&empty=', '/a?token=***&flag&empty='],
    ['/a?', '/a?'],
  ])('%s → %s', (target, masked) => {
    expect(maskQueryValues(target)).toBe(masked);
  });
});

describe('a refused --proxy URL', () => {
  function refusal(value: string): string {
    try {
      proxyUrl('--proxy', value);
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
    throw new Error(`accepted: ${value}`);
  }

  it.each([
    ['a query', 'https://up.test/api?token=SECRET1&sig=SECRET2', "'https://up.test/api?token=***&sig=***'"],
    ['a fragment', 'https://up.test/#access_token=SECRET1', "'https://up.test/#***'"],
    ['credentials', 'https://SECRET1:SECRET2@up.test/', "'https://***@up.test/'"],
    ['a password holding @', 'https://me:SECRET1@SECRET2@up.test/?x=SECRET3', "'https://***@up.test/?x=***'"],
    ['no http(s) scheme', 'ftp://up.test/?token=SECRET1', "got 'ftp://up.test/?token=***'"],
  ])('with %s: names kept, every value masked', (_what, value, shown) => {
    const message = refusal(value);
    expect(message).toContain(shown);
    expect(message).not.toMatch(/SECRET/);
  });
});
