// The lines of a base's links read back as bytes (base-link-lines.ts): every line of the writer's
// layout, whatever the reads' boundaries; NotCarried for anything else, bounded by its buffer.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { BaseLinkLines, LINE_BUFFER_BYTES, MORE, NotCarried } from '../../src/store/file/base-link-lines.js';
import { idHash } from '../../src/store/file/id-hash.js';
import { useFileDb } from '../helpers/file-db.js';

const db = useFileDb('slm-lines-');

/** Every line of `text`'s links as `[id, bytes]`, or the error the reader threw. */
async function linesOf(text: string): Promise<[string, string][] | Error> {
  const file = join(db.file, '..', 'base.json');
  writeFileSync(file, text);
  const lines = await BaseLinkLines.open(file);
  const found: [string, string][] = [];
  try {
    await lines.seekLinks();
    for (let line = lines.next(); line !== null; line = lines.next()) {
      if (line === MORE) await lines.fill();
      else {
        expect(line.hash).toBe(idHash(lines.id(line)));
        found.push([lines.id(line), lines.buffer.toString('utf8', line.from, line.to)]);
      }
    }
    return found;
  } catch (error) {
    return error as Error;
  } finally {
    await lines.close();
  }
}

const head = '{\n  "kind": "shortlink-mock-db",\n  "tags": {\n    "tag_1": {"id":"tag_1","name":"x"}\n  },\n  "links": {';
const line = (id: string, body = `{"id":"${id}"}`): string => `\n    "${id}": ${body}`;

it('reads each line of the layout, across reads of any size, and none of an empty member', async () => {
  const ids = Array.from({ length: 3000 }, (_, i) => `lnk_${i}`);
  const found = await linesOf(`${head}${ids.map((id) => line(id)).join(',')}\n  }\n}\n`);
  expect(found).toEqual(ids.map((id) => [id, line(id)]));
  expect(await linesOf(`${head}}\n}\n`)).toEqual([]);
});

it('refuses what is not the layout: no links member, another indent, an escaped id, a value not an object, a file cut in its links', async () => {
  const refused = [
    '{"links": {"lnk_1": {}}}',
    `${head}\n  "lnk_1": {}\n  }\n}\n`,
    `${head}${line('lnk_\\"1')}\n  }\n}\n`,
    `${head}${line('lnk_1', '[1]')}\n  }\n}\n`,
    `${head}${line('lnk_1')},${line('lnk_2')}`,
  ];
  for (const text of refused) expect(await linesOf(text)).toBeInstanceOf(NotCarried);
});

it(`refuses a line longer than its buffer (${LINE_BUFFER_BYTES} bytes) instead of growing it`, async () => {
  const long = line('lnk_long', `{"title":"${'x'.repeat(LINE_BUFFER_BYTES)}"}`);
  const found = await linesOf(`${head}${line('lnk_1')},${long}\n  }\n}\n`);
  expect(found).toBeInstanceOf(NotCarried);
  expect((found as Error).message).toContain('longer than');
});
