// The flags naming the mock a command reads (--base-url, --admin-token and their environment
// twins): a refused address names where it came from, the flag or MOCK_BASE_URL.
import { describe, expect, it } from 'vitest';
import { parseAdminFlags } from '../../src/toolkit/admin-flags.js';

const baseUrl = (argv: string[], env: Record<string, string>): string => {
  const parsed = parseAdminFlags(argv, env, []);
  if (parsed === 'help') throw new Error('help');
  return parsed.target.baseUrl;
};

describe('parseAdminFlags: the base URL', () => {
  it.each([
    [[], {}, 'http://127.0.0.1:4010'],
    [[], { MOCK_BASE_URL: 'http://127.0.0.1:5000' }, 'http://127.0.0.1:5000'],
    [['--base-url', 'http://127.0.0.1:6000'], { MOCK_BASE_URL: 'bad' }, 'http://127.0.0.1:6000'],
  ])('%j with %j: %s', (argv, env, expected) => {
    expect(baseUrl(argv, env)).toBe(expected);
  });

  it.each([
    [['--base-url', 'bad'], {}, "--base-url must be an http(s) URL such as http://127.0.0.1:4010, got 'bad'"],
    [[], { MOCK_BASE_URL: 'bad' }, "MOCK_BASE_URL must be an http(s) URL such as http://127.0.0.1:4010, got 'bad'"],
    [[], { MOCK_BASE_URL: 'ftp://example.com' }, "MOCK_BASE_URL must be an http(s) URL such as http://127.0.0.1:4010, got 'ftp://example.com'"],
    [[], { MOCK_BASE_URL: ' ' }, 'MOCK_BASE_URL must not be empty'],
  ])('%j with %j is refused: %s', (argv, env, message) => {
    expect(() => baseUrl(argv, env)).toThrow(message);
  });
});
