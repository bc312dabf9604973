// A key given as a string, as the UTF-8 bytes the packed indexes compare: written into one scratch
// Buffer reused from call to call (no Buffer per lookup), grown to at most MAX_KEY_BYTES.
// A string with a lone surrogate has no UTF-8 form of its own (every lone surrogate becomes the
// same three bytes, U+FFFD), so two such keys would be one: such a key is not stored, like one
// too long.
import { MAX_KEY_BYTES } from './bounds.js';

/** UTF-8 takes at least one byte per UTF-16 unit and at most three. */
const MAX_BYTES_PER_UNIT = 3;

const wellFormed = (key: string): boolean => (key as unknown as { isWellFormed(): boolean }).isWellFormed();

export class KeyBytes {
  private scratch = Buffer.allocUnsafe(64);

  /**
   * The key's bytes in the scratch (valid until the next call), or undefined when no such key can
   * be stored: over MAX_KEY_BYTES or with a lone surrogate (a lookup finds nothing, a put refuses).
   */
  of(key: string): Buffer | undefined {
    if (key.length > MAX_KEY_BYTES || !wellFormed(key)) return undefined;
    const most = key.length * MAX_BYTES_PER_UNIT;
    if (most > this.scratch.length) this.scratch = Buffer.allocUnsafe(Math.max(most, 2 * this.scratch.length));
    const length = this.scratch.write(key, 0, 'utf8');
    return length > MAX_KEY_BYTES ? undefined : this.scratch.subarray(0, length);
  }
}

/** Why a put of `key` is refused (a key `of` gave no bytes for). */
export function keyRefusal(key: string): RangeError {
  if (!wellFormed(key)) return new RangeError('a key with a lone surrogate has no UTF-8 form: not stored');
  return new RangeError(`a key of ${Buffer.byteLength(key, 'utf8')} bytes: at most ${MAX_KEY_BYTES} (MAX_KEY_BYTES)`);
}
