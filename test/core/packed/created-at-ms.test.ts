// createdAtMs (src/core/packed/created-at-ms.ts): ms read from the text's digits, the same number
// as Date.parse exactly when the text is toISOString's, NaN otherwise.
import { faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { createdAtMs } from '../../../src/core/packed/created-at-ms.js';

/** The definition: Date.parse's number when toISOString writes the same text back. */
const byDefinition = (text: string): number => {
  const ms = Date.parse(text);
  return Number.isFinite(ms) && new Date(ms).toISOString() === text ? ms : Number.NaN;
};

describe('createdAtMs', () => {
  it('agrees with Date.parse and toISOString on seeded times, years 0-9999, and on each field pushed past its range', () => {
    faker.seed(4006);
    const texts = ['0000-01-01T00:00:00.000Z', '0099-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z', '2024-02-29T12:00:00.000Z'];
    for (let k = 0; k < 3000; k += 1) texts.push(new Date(faker.number.int({ min: -62_167_219_200_000, max: 253_402_300_799_999 })).toISOString());
    const broken: string[] = [];
    for (const text of texts.slice(0, 500)) {
      // Each two-digit field set to a value past it, and a separator or digit changed.
      for (const [at, value] of [[5, '13'], [5, '00'], [8, '00'], [8, '32'], [11, '24'], [14, '60'], [17, '60'], [8, '30'], [8, '31']] as const) broken.push(text.slice(0, at) + value + text.slice(at + 2));
      broken.push(text.replace('T', ' '), text.replace('Z', '+'), text.replace('.', ','), text.slice(0, 23), `${text.slice(0, 3)}x${text.slice(4)}`);
    }
    const wrong = [...texts, ...broken, '2026-02-29T00:00:00.000Z', '+002026-01-01T00:00:00.000Z'].filter((text) => !Object.is(createdAtMs(text), byDefinition(text)));
    expect(wrong).toEqual([]);
    expect(createdAtMs('2026-11-29T00:00:00.000Z')).toBe(Date.parse('2026-11-29T00:00:00.000Z'));
    expect(createdAtMs('2026-02-30T00:00:00.000Z')).toBeNaN();
    expect(createdAtMs(undefined)).toBeNaN();
    expect(createdAtMs(1.7e12)).toBeNaN();
  });
});
