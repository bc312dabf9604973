// The base and snapshot writer's one buffer (src/store/file/reused-buffer.ts): the file is handed the
// same bytes' memory write after write, not a new text a batch (issue 40: a text alive while its
// write was in the thread pool was promoted to the old space by a scavenge in between), and the
// bytes are still the data, whole and in order, whatever the sink takes at a time.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { LinkRecord, MockData } from '../../src/core/model.js';
import { writeDataChunked } from '../../src/store/file/chunked-json.js';
import { ReusedBuffer, type ByteSink } from '../../src/store/file/reused-buffer.js';
import { fixtures, TEST_SEED } from '../helpers/test-app.js';

/** A sink that keeps what it was handed and the bytes, taking at most `most` bytes a write. */
function recordingSink(most = Number.MAX_SAFE_INTEGER): ByteSink & { handed: unknown[]; bytes: () => Buffer } {
  const handed: unknown[] = [];
  const chunks: Buffer[] = [];
  return {
    handed,
    bytes: () => Buffer.concat(chunks),
    write: async (buffer, offset, length) => {
      handed.push(buffer);
      // A text (the writer before its buffer was reused) is taken whole, so that the test fails on what it checks.
      if (typeof buffer === 'string') {
        chunks.push(Buffer.from(buffer));
        return { bytesWritten: Buffer.byteLength(buffer) };
      }
      const taken = Math.min(length, most);
      chunks.push(Buffer.from(buffer.subarray(offset, offset + taken)));
      return { bytesWritten: taken };
    },
  };
}

function withLinks(count: number): MockData {
  const data = buildSeed(TEST_SEED, fixtures);
  const template = [...data.links.values()][0] as LinkRecord;
  for (let i = 0; i < count; i += 1) data.links.set(`lnk_r${i}`, { ...template, id: `lnk_r${i}`, slug: `r${i}`, title: `é ${i} 🔗` });
  return data;
}

describe('writeDataChunked through a ReusedBuffer', () => {
  it('hands the file the same memory for every batch, and the bytes parse back to every link in order', async () => {
    const data = withLinks(2_500);
    const sink = recordingSink();
    await writeDataChunked(sink, data, data.links.keys(), 4);
    // Three batches of links at least (1,000 a write), and the head and tags.
    expect(sink.handed.length).toBeGreaterThanOrEqual(3);
    for (const handed of sink.handed) expect(handed).toBeInstanceOf(Uint8Array);
    expect(new Set(sink.handed.map((handed) => (handed as Uint8Array).buffer)).size).toBe(1);
    const parsed = JSON.parse(sink.bytes().toString('utf8')) as { generation: number; links: Record<string, LinkRecord> };
    expect(parsed.generation).toBe(4);
    expect(Object.keys(parsed.links)).toEqual([...data.links.keys()]);
    expect(parsed.links.lnk_r2499).toEqual(data.links.get('lnk_r2499'));
  });
});

describe('ReusedBuffer', () => {
  it('writes a text larger than the buffer whole and in order, and continues short writes', async () => {
    const sink = recordingSink(7);
    const out = new ReusedBuffer(sink, 64);
    const texts = ['{"a":', 'x'.repeat(100), '"é🔗"', ',', 'y'.repeat(30), '}'];
    for (const text of texts) await out.put(text);
    await out.flush();
    expect(sink.bytes().toString('utf8')).toBe(texts.join(''));
  });

  it('fails a write the file takes nothing of, instead of trying it again for ever', async () => {
    const out = new ReusedBuffer({ write: async () => ({ bytesWritten: 0 }) }, 64);
    expect(out.add('abc')).toBe(true);
    await expect(out.flush()).rejects.toThrow('the file took no bytes of a write');
  });
});

describe('writeDataChunked on a slow machine', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lets the event loop go round once a turn has serialised records for WRITE_TURN_MS, not only after each batch', async () => {
    const data = withLinks(2_500);
    // A clock 10 ms on at each reading: every reading finds the turn out of time.
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (now += 10));
    let turns = 0;
    let done = false;
    const count = (): void => {
      turns += 1;
      if (!done) setImmediate(count);
    };
    setImmediate(count);
    // The sink resolves at once: only the writer's own yields let the loop go round.
    await writeDataChunked(recordingSink(), data, data.links.keys(), 1);
    done = true;
    // One turn at least every 32 links of the 2,500 (the clock is read every 32 records).
    expect(turns).toBeGreaterThanOrEqual(Math.floor(2_500 / 32) - 1);
  });
});
