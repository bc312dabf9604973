// SchemaImport: schemas copied from two documents into one components.schemas, each with what it
// refers to (the admin document takes the API's from FILE and from the shipped contract).
import { describe, expect, it } from 'vitest';
import { SchemaImport } from '../../src/contract/schema-import.js';

const shipped = {
  components: {
    schemas: {
      Link: { type: 'object', properties: { domain: { $ref: '#/components/schemas/Domain' } } },
      Domain: { type: 'object', properties: { name: { type: 'string' } } },
      Error: { type: 'object', required: ['errorDescription'] },
    },
  },
};

describe('SchemaImport', () => {
  it('copies a schema with what it refers to; names the target has already are kept', () => {
    const schemas: Record<string, unknown> = { Account: { type: 'object' }, Domain: { type: 'string' } };
    const imported = new SchemaImport(schemas);
    expect(imported.ref(shipped, '/components/schemas/Link', 'Link')).toBe('#/components/schemas/Link');
    expect(schemas).toEqual({
      Account: { type: 'object' },
      Domain: { type: 'string' },
      Link: { type: 'object', properties: { domain: { $ref: '#/components/schemas/Domain_2' } } },
      Domain_2: shipped.components.schemas.Domain,
    });
  });

  it('a schema equal in two documents, with all it refers to, is copied once; a different one of the same name gets a suffix', () => {
    const file = {
      components: {
        schemas: {
          ShortLink: { type: 'object', properties: { domain: { $ref: '#/components/schemas/Domain' }, expiresAt: { type: 'string' } } },
          Domain: shipped.components.schemas.Domain,
          Error: { type: 'object', required: ['message'] },
        },
      },
    };
    const schemas: Record<string, unknown> = {};
    const imported = new SchemaImport(schemas);
    expect(imported.ref(file, '/components/schemas/ShortLink', 'Link')).toBe('#/components/schemas/Link');
    expect(imported.ref(shipped, '/components/schemas/Domain', 'Domain')).toBe('#/components/schemas/Domain');
    expect(imported.ref(file, '/components/schemas/Error', 'Error')).toBe('#/components/schemas/Error');
    expect(imported.ref(shipped, '/components/schemas/Error', 'Error')).toBe('#/components/schemas/Error_2');
    expect(Object.keys(schemas).sort()).toEqual(['Domain', 'Error', 'Error_2', 'Link']);
    expect(schemas['Error_2']).toEqual(shipped.components.schemas.Error);
  });

  it('follows a reference to anywhere in the document, and a cycle ends', () => {
    const file = {
      paths: { '/links': { post: { responses: { '201': { content: { 'application/json': { schema: { type: 'object', properties: { next: { $ref: '#/paths/~1links/post/responses/201/content/application~1json/schema' } } } } } } } } } },
    };
    const schemas: Record<string, unknown> = {};
    const ref = new SchemaImport(schemas).ref(file, '/paths/~1links/post/responses/201/content/application~1json/schema', 'Link');
    expect(ref).toBe('#/components/schemas/Link');
    expect(schemas).toEqual({ Link: { type: 'object', properties: { next: { $ref: '#/components/schemas/Link' } } } });
  });
});
