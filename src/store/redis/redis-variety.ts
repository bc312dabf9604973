// Variety mode's settings on Redis, shared by every instance of the mock:
//   <prefix>traffic:variety          hash: API key → the key's setting (JSON); the field '' holds
//                                    the global one (an API key is never empty)
//   <prefix>traffic:variety-version  string: a counter raised by every change, in the same step
// Each instance answers from its own copy (no round trip on the request path) and follows the
// counter every VARIETY_FOLLOW_MS (src/variety/switch.ts): a change through one instance reaches
// the others within that time. Settings stay through a reset, like scenarios.
import type { SharedVarietySettings, VarietySetting } from '../../core/variety-settings.js';
import { luaScript, type TrafficRedis } from './redis-traffic-client.js';

/** KEYS: hash, version. ARGV: '1' to set or '0' to clear, the field, the setting's JSON. */
const CHANGE = luaScript(`
if ARGV[1] == '1' then redis.call('HSET', KEYS[1], ARGV[2], ARGV[3]) else redis.call('HDEL', KEYS[1], ARGV[2]) end
return redis.call('INCR', KEYS[2])`);

/** KEYS: hash, version. The counter and every setting, in one step. */
const READ_ALL = luaScript(`return {redis.call('GET', KEYS[2]), redis.call('HVALS', KEYS[1])}`);

const GLOBAL_FIELD = '';

export class RedisVarietySettings implements SharedVarietySettings {
  private readonly hashKey: string;
  private readonly versionKey: string;

  constructor(private readonly redis: TrafficRedis) {
    this.hashKey = redis.key('variety');
    this.versionKey = redis.key('variety-version');
  }

  async version(): Promise<string | null> {
    return (await this.redis.call(['GET', this.versionKey])) as string | null;
  }

  async all(): Promise<{ version: string | null; settings: VarietySetting[] }> {
    const [version, values] = (await this.redis.script(READ_ALL, [this.hashKey, this.versionKey], [])) as [string | null, string[]];
    return { version: version ?? null, settings: (values ?? []).map((value) => JSON.parse(value) as VarietySetting) };
  }

  async set(setting: VarietySetting): Promise<void> {
    await this.redis.script(CHANGE, [this.hashKey, this.versionKey], ['1', setting.apiKey ?? GLOBAL_FIELD, JSON.stringify(setting)]);
  }

  async clear(apiKey: string | null): Promise<void> {
    await this.redis.script(CHANGE, [this.hashKey, this.versionKey], ['0', apiKey ?? GLOBAL_FIELD, '']);
  }
}
