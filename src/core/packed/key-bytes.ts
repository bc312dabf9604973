// A key given as a string, as the UTF-8 bytes the packed indexes compare: written into one scratch
// Buffer reused from call to call (no Buffer or view per lookup), grown to at most MAX_KEY_BYTES.
// An ASCII key (the API's ids and slugs) is copied a character at a time, no native call.
// A string with a lone surrogate has no UTF-8 form of its own (every lone surrogate becomes the
// same three bytes, U+FFFD), so two such keys would be one: such a key is not stored, like one
// too long.
import { MAX_KEY_BYTES } from './bounds.js';

/** UTF-8 takes at least one byte per UTF-16 unit and at most three. */
const MAX_BYTES_PER_UNIT = 3;

const wellFormed = (key: string): boolean => (key as unknown as { isWellFormed(): boolean }).isWellFormed();

export class KeyBytes {
  /** The last key's bytes are bytes[0, length): valid until the next call. */
  bytes = Buffer.allocUnsafe(256);

  /**
   * Writes the key's bytes into `bytes`: their length, or -1 when no such key can be stored (over
   * MAX_KEY_BYTES or with a lone surrogate: a lookup finds nothing, a put refuses).
   */
  of(key: string): number {
    const units = key.length;
    if (units > MAX_KEY_BYTES) return -1;
    const bytes = this.bytes;
    if (units <= bytes.length) {
      let at = 0;
      for (; at < units; at += 1) {
        const unit = key.charCodeAt(at);
        if (unit >= 0x80) break;
        bytes[at] = unit;
      }
      if (at === units) return units;
    }
    return this.encode(key);
  }

  private encode(key: string): number {
    if (!wellFormed(key)) return -1;
    const most = key.length * MAX_BYTES_PER_UNIT;
    if (most > this.bytes.length) this.bytes = Buffer.allocUnsafe(Math.max(most, 2 * this.bytes.length));
    const length = this.bytes.write(key, 0, 'utf8');
    return length > MAX_KEY_BYTES ? -1 : length;
  }
}

/** Why a put of `key` is refused (a key `of` gave no bytes for). */
export function keyRefusal(key: string): RangeError {
  if (!wellFormed(key)) return new RangeError('a key with a lone surrogate has no UTF-8 form: not stored');
  return new RangeError(`a key of ${Buffer.byteLength(key, 'utf8')} bytes: at most ${MAX_KEY_BYTES} (MAX_KEY_BYTES)`);
}
