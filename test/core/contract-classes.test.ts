// Issue 38, part 2: a contract FILE compared with the shipped openapi.yaml (src/core/contract-classes.ts):
// each operation rule / store / generated / gone, and each field FILE adds or removes, by pointer.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyContract, type ServedField, type ServedOperation } from '../../src/core/contract-classes.js';
import { readContract } from '../../src/contract/package-files.js';
import { readUserContract } from '../../src/contract/user-contract.js';

const shipped = readContract().document;
const classesOf = (name: string) => classifyContract(shipped, readUserContract(resolve('test/fixtures/contracts', name)).document);
const RULES: ServedOperation[] = ['createLink', 'updateLink', 'deleteLink'].map((operationId) => ({
  operationId,
  method: operationId === 'createLink' ? 'POST' : operationId === 'updateLink' ? 'PUT' : 'DELETE',
  path: operationId === 'createLink' ? '/links' : '/links/{id}',
  served: 'rule',
}));

describe('classifyContract', () => {
  it('the shipped contract against itself: three operations by rule, no field changed', () => {
    expect(classifyContract(shipped, shipped)).toEqual({ operations: RULES, fields: [] });
  });

  it.each<[string, Partial<ServedOperation>[], ServedField[]]>([
    ['expires-at.yaml', [], [
      { pointer: '/components/schemas/Link/properties/expiresAt', name: 'expiresAt', of: 'Link', served: 'generated' },
      { pointer: '/components/schemas/CreateLinkRequest/properties/expiresAt', name: 'expiresAt', of: 'createLink', served: 'request' },
      { pointer: '/components/schemas/UpdateLinkRequest/properties/expiresAt', name: 'expiresAt', of: 'updateLink', served: 'request' },
    ]],
    ['required-field.yaml', [], [
      { pointer: '/components/schemas/Link/properties/status', name: 'status', of: 'Link', served: 'generated', required: true },
      { pointer: '/components/schemas/Link/properties/qrCode', name: 'qrCode', of: 'Link', served: 'generated', required: true },
      { pointer: '/components/schemas/Link/properties/campaignCode', name: 'campaignCode', of: 'Link', served: 'generated', required: true },
    ]],
    ['get-link.yaml', [{ operationId: 'getLink', method: 'GET', path: '/links/{id}', served: 'store', read: 'one' }], []],
    ['list-links.yaml', [{ operationId: 'listLinks', method: 'GET', path: '/links', served: 'store', read: 'list', itemsField: 'items' }], []],
    ['stats-added.yaml', [{ operationId: 'getStats', method: 'GET', path: '/stats', served: 'generated' }], []],
    ['title-removed.yaml', [], [{ pointer: '/components/schemas/Link/properties/title', name: 'title', of: 'Link', served: 'gone' }]],
    ['slug-max-20.yaml', [], []],
    ['enum-value-added.yaml', [], []],
    ['status-added.yaml', [], []],
    ['title-nullable.yaml', [], []],
    ['create-destination-removed.yaml', [], [{ pointer: '/components/schemas/CreateLinkRequest/properties/destinationUrl', name: 'destinationUrl', of: 'createLink', served: 'gone' }]],
    ['delete-removed.yaml', [{ operationId: 'deleteLink', method: 'DELETE', path: '/links/{id}', served: 'gone' }], []],
  ])('%s', (name, operations, fields) => {
    const classes = classesOf(name);
    expect(classes.operations.filter((operation) => !RULES.some((rule) => rule.operationId === operation.operationId && operation.served === 'rule'))).toEqual(operations);
    expect(classes.fields).toEqual(fields);
  });
});
