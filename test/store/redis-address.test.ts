// Where --db says Redis is (src/store/redis/redis-address.ts): a redis:// or rediss:// URL goes to
// node-redis as it is; a unix:// URL becomes a socket path, a database and credentials, and a
// malformed one is refused with one line that names the form and never the password.
import { describe, expect, it } from 'vitest';
import { isRedisSocketUrl, RedisAddressError, redisClientAddress } from '../../src/store/redis/redis-address.js';
import { isRedisUrl } from '../../src/process/option-values.js';

describe('redisClientAddress', () => {
  it('hands a redis:// or rediss:// URL to node-redis unchanged', () => {
    expect(redisClientAddress('redis://u:p@127.0.0.1:6379/2')).toEqual({ url: 'redis://u:p@127.0.0.1:6379/2' });
    expect(redisClientAddress('rediss://cache.example:6380')).toEqual({ url: 'rediss://cache.example:6380' });
  });

  it('reads a unix:// URL: its path, ?db=N and user:password@, percent-decoded', () => {
    expect(redisClientAddress('unix:///run/redis/redis.sock')).toEqual({ socket: { path: '/run/redis/redis.sock' } });
    expect(redisClientAddress('UNIX:///tmp/r.sock?db=3')).toEqual({ socket: { path: '/tmp/r.sock' }, database: 3 });
    expect(redisClientAddress('unix://mock:s%40cret@/tmp/my%20dir/r.sock?db=0')).toEqual({ socket: { path: '/tmp/my dir/r.sock' }, database: 0, username: 'mock', password: 's@cret' });
    expect(redisClientAddress('unix://:only-a-password@/tmp/r.sock')).toEqual({ socket: { path: '/tmp/r.sock' }, password: 'only-a-password' });
  });

  it.each([
    ['unix://relative.sock', /unix:\/\/\/absolute\/path/],
    ['unix://host/tmp/r.sock', /unix:\/\/\/absolute\/path/],
    ['unix:///tmp/r.sock?db=x', /\?db= takes a database number, got 'x'/],
    ['unix:///tmp/r.sock?db=-1', /\?db= takes a database number/],
    ['unix:///tmp/r.sock?timeout=5', /takes only \?db=N, not \?timeout=/],
    ['unix:///tmp/r.sock#frag', /unix:\/\/\/absolute\/path/],
  ])('refuses %s with one line saying the form', (location, message) => {
    expect(() => redisClientAddress(location)).toThrow(RedisAddressError);
    expect(() => redisClientAddress(location)).toThrow(message);
  });

  it('never puts the password in its error', () => {
    let thrown: unknown;
    try {
      redisClientAddress('unix://u:top%ZZsecret@/tmp/r.sock');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RedisAddressError);
    expect((thrown as Error).message).toBe('its user, password or path is not valid percent-encoding');
  });
});

describe('--db kinds', () => {
  it('counts unix:// as Redis, beside redis:// and rediss://; a path or :memory: is not', () => {
    for (const db of ['redis://h:1', 'rediss://h:1', 'unix:///tmp/r.sock', 'Unix:///tmp/r.sock']) expect(isRedisUrl(db)).toBe(true);
    for (const db of ['.data/db.json', ':memory:', 'unix.json', '/tmp/unix:/db.json']) expect(isRedisUrl(db)).toBe(false);
    expect(isRedisSocketUrl('unix:///tmp/r.sock')).toBe(true);
    expect(isRedisSocketUrl('redis://h:1')).toBe(false);
  });
});
