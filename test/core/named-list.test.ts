// namedList: a list in a sentence, bounded at MAX_NAMED (the 404 for a path the contract lacks).
import { describe, expect, it } from 'vitest';
import { MAX_NAMED, namedList } from '../../src/core/named-list.js';

const names = (count: number): string[] => Array.from({ length: count }, (_, index) => `n${index}`);

describe('namedList', () => {
  it.each([
    [[], ''],
    [['POST /links'], 'POST /links'],
    [['a', 'b'], 'a and b'],
    [['POST /links', 'PUT /links/{id}', 'DELETE /links/{id}'], 'POST /links, PUT /links/{id} and DELETE /links/{id}'],
    [names(MAX_NAMED), `${names(MAX_NAMED - 1).join(', ')} and n${MAX_NAMED - 1}`],
    [names(MAX_NAMED + 1), `${names(MAX_NAMED).join(', ')} and 1 more`],
    [names(200), `${names(MAX_NAMED).join(', ')} and ${200 - MAX_NAMED} more`],
  ])('%j → %s', (given, expected) => {
    expect(namedList(given)).toBe(expected);
  });
});
