// The links table checked against the plain object it stands for (MockData.links before issue 40):
// a link of a given id, and one seeded step (a put or a delete) applied to both.
import { expect } from 'vitest';
import type { LinkRecord, LinkTable } from '../../src/core/model.js';
import { putEntry } from '../../src/core/own-entry.js';

export const tableLink = (id: string, n: number): LinkRecord => ({ id, accountId: 'acc_1', domainId: 'dom_1', slug: `s${n}`, destinationUrl: 'https://example.com/', createdAt: '2026-11-29T00:00:00.000Z', clickCount: n, tagIds: [] });

/** Puts `tableLink(id, step)` under `id` in both, or deletes `id` from both (the table saying whether it held it, as the object does). */
export function stepBoth(table: LinkTable, model: Record<string, LinkRecord>, id: string, put: boolean, step: number): void {
  if (put) {
    const next = tableLink(id, step);
    putEntry(model, id, next);
    table.set(id, next);
  } else {
    expect(table.delete(id)).toBe(Object.hasOwn(model, id));
    delete model[id];
  }
}
