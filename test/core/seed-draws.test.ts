// SeedDraws (fixtures/seed-draws.ts) stands for faker's own calls: each method must give what the
// faker call gives, and leave the sequence where that call leaves it, or every later value of a seed
// changes. Two Fakers of one seed: one called through faker's methods, one through SeedDraws, in the
// same random mix of calls; then both must draw the same next number. The English data, and a locale
// of odd words that sends each method down faker's fallbacks (accents, '24/7', one-letter words).
import { describe, expect, it } from 'vitest';
import type { Faker } from '@faker-js/faker';
import { faker as englishFaker } from '@faker-js/faker/locale/en';
import { SeedDraws } from '../../fixtures/seed-draws.js';
import { isoString } from '../../fixtures/seed-time.js';
import { ALPHANUMERIC, newId, randomString } from '../../src/core/random.js';

const FakerClass = englishFaker.constructor as typeof Faker;
const REF_DATE = new Date('2026-11-01T12:00:00.000Z');
const CALLS = 4000;

const ODD_WORDS = {
  lorem: { word: ['café', 'naïve', 'a', 'über', 'plain', 'x-ray', 'o', 'ok'] },
  word: { adjective: ['24/7', 'Crème-brûlée', 'blue', 'a', 'far-off', 'ß'], noun: ['e-mail', 'ö', 'Zebra', 'pi'] },
  internet: { domain_suffix: ['com'] },
  company: { adjective: ['AI-driven', 'Face to face'], descriptor: ['24/7'], noun: ['focus group', 'x'] },
};

function fakerOf(seed: number, odd: boolean): Faker {
  const faker = new FakerClass({ locale: odd ? [ODD_WORDS, englishFaker.rawDefinitions] : [englishFaker.rawDefinitions] });
  faker.seed(seed);
  return faker;
}

type Call = [name: string, viaFaker: (faker: Faker) => unknown, viaDraws: (draws: SeedDraws) => unknown];

const tags = ['t1', 't2', 't3', 't4', 't5'];
const calls: Call[] = [
  ['int', (f) => f.number.int({ min: 0, max: 61 }), (d) => d.int(0, 61)],
  ['int of one value', (f) => f.number.int({ min: 7, max: 7 }), (d) => d.int(7, 7)],
  ['boolean', (f) => f.datatype.boolean(), (d) => d.boolean()],
  ['boolean(0.2)', (f) => f.datatype.boolean(0.2), (d) => d.boolean(0.2)],
  ['arrayElement', (f) => f.helpers.arrayElement(tags), (d) => d.pick(tags)],
  ['arrayElement of one', (f) => f.helpers.arrayElement(['only']), (d) => d.pick(['only'])],
  ...[0, 1, 2, 3, 5, 7].map((count): Call => [`arrayElements(${count})`, (f) => f.helpers.arrayElements(tags, count), (d) => d.pickSome(tags, count)]),
  ['lorem.slug(1-2)', (f) => f.lorem.slug({ min: 1, max: 2 }), (d) => d.loremSlug(1, 2)],
  ['lorem.slug(1-3)', (f) => f.lorem.slug({ min: 1, max: 3 }), (d) => d.loremSlug(1, 3)],
  ['internet.url + lorem.slug', (f) => `${f.internet.url({ appendSlash: false })}/${f.lorem.slug({ min: 1, max: 3 })}`, (d) => d.urlWithPath(() => d.loremSlug(1, 3))],
  ['company.catchPhrase', (f) => f.company.catchPhrase(), (d) => d.catchPhrase()],
  ['randomString(16)', (f) => randomString((max) => f.number.int({ min: 0, max: max - 1 }), 16), (d) => d.text(ALPHANUMERIC, 16)],
  ["newId('lnk'), a link's id", (f) => newId((max) => f.number.int({ min: 0, max: max - 1 }), 'lnk'), (d) => d.text(ALPHANUMERIC, 16, 'lnk_')],
  ['randomString(7)', (f) => randomString((max) => f.number.int({ min: 0, max: max - 1 }), 7), (d) => d.text(ALPHANUMERIC, 7)],
  ['date.past', (f) => f.date.past({ years: 2, refDate: REF_DATE }).toISOString(), (d) => isoString(d.pastTime(2, REF_DATE))],
];

describe.each([
  ['English', false],
  ['odd words', true],
])('SeedDraws gives what faker gives (%s)', (_name, odd) => {
  it.each([0, 1, 20261122])(`seed %i: ${CALLS} calls of every kind, mixed`, (seed) => {
    const viaFaker = fakerOf(seed, odd);
    const viaDraws = fakerOf(seed, odd);
    const draws = new SeedDraws(viaDraws);
    const order = fakerOf(seed + 1, false);
    for (let i = 0; i < CALLS; i += 1) {
      const [name, fromFaker, fromDraws] = order.helpers.arrayElement(calls);
      expect(fromDraws(draws), `call ${i}: ${name}`).toEqual(fromFaker(viaFaker));
    }
    expect(viaDraws.number.float(), 'the sequences are at the same point').toBe(viaFaker.number.float());
  });
});

describe('isoString is Date#toISOString', () => {
  it.each([
    0, 951_782_400_000, 951_868_799_999, 4_107_542_400_000, 1_709_164_800_123, 1_735_689_599_999, 253_402_300_799_999,
    -1, 253_402_300_800_000, -62_198_755_200_000, 1.5,
  ])('%d', (ms) => {
    expect(isoString(ms)).toBe(new Date(ms).toISOString());
  });

  it('at 20,000 moments spread over 1970 to 9999', () => {
    const faker = fakerOf(7, false);
    for (let i = 0; i < 20_000; i += 1) {
      const ms = faker.number.int({ min: 0, max: 253_402_300_799_999 });
      expect(isoString(ms), String(ms)).toBe(new Date(ms).toISOString());
    }
  });
});
