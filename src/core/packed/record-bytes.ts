// A packed table's record: the key's UTF-8 bytes, then the value's JSON text (`JSON.stringify`,
// the text of the db line's value), in one scratch Buffer reused from put to put. The key is kept
// in front of the JSON rather than read out of it: a table's key need not be the link's id, and a
// JSON string may escape what the key's bytes hold plainly.
import { MAX_RECORD_BYTES } from './bounds.js';
import { KeyBytes, keyRefusal } from './key-bytes.js';

/** A scratch grown past this (one large record) is let go after the put. */
const KEPT_SCRATCH_BYTES = 1024 * 1024;

export class RecordBytes {
  private readonly keys = new KeyBytes();
  private scratch = Buffer.allocUnsafe(4096);
  /** The key's length in the last record written. */
  keyLength = 0;

  /**
   * Key and JSON of `value` as one record, valid until the next call. Throws (nothing else done)
   * on a key with no stored form, a value JSON cannot write (a cycle, a BigInt, undefined), or a
   * record past MAX_RECORD_BYTES.
   */
  write(key: string, value: unknown): Buffer {
    const keyLength = this.keys.of(key);
    if (keyLength < 0) throw keyRefusal(key);
    const json = JSON.stringify(value) as string | undefined;
    if (json === undefined) throw new TypeError('a packed table holds values JSON can write: got undefined');
    // Room for the most bytes the text can take (3 a UTF-16 unit) without counting them first,
    // unless that is more than a scratch is kept at.
    let room = keyLength + json.length * 3;
    if (room > KEPT_SCRATCH_BYTES) room = keyLength + Buffer.byteLength(json, 'utf8');
    if (room > MAX_RECORD_BYTES) throw new RangeError(`a record of ${room} bytes: at most ${MAX_RECORD_BYTES} (MAX_RECORD_BYTES)`);
    if (room > this.scratch.length) this.scratch = Buffer.allocUnsafe(Math.max(room, 2 * this.scratch.length));
    this.keys.bytes.copy(this.scratch, 0, 0, keyLength);
    this.keyLength = keyLength;
    const size = keyLength + this.scratch.write(json, keyLength, 'utf8');
    const record = this.scratch.subarray(0, size);
    if (this.scratch.length > KEPT_SCRATCH_BYTES) this.scratch = Buffer.allocUnsafe(4096);
    return record;
  }
}
