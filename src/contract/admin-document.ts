// The admin API's document bundled for the contract a mock serves. src/admin/openapi.yaml refers to
// the API's schemas in the shipped openapi.yaml (as file references, so that it lints on its own),
// and those are what it means whatever FILE says: the admin API is the mock's own, its errors are
// written by the mock's one serializer, its accounts' domains come from its store, and a provider
// state is read by rules written for the shipped contract. Taking them from FILE by name broke every
// admin route when FILE named its schemas otherwise, and would judge the mock's own answers by a
// schema of FILE's that it never follows. One exception: the admin's Link answers are the links as
// the API shows them under FILE (its new fields added, removed ones left out, link-fields.ts), so
// they are judged by FILE's Link schema, found as the classification finds it (createLink's 201
// answer, else components.schemas.Link, under whatever name); the shipped Link when FILE has none.
// docs/next-contract.md, "The admin API under FILE".
import { linkSchema } from '../core/contract-classes.js';
import type { Contract, OpenApiDocument } from '../core/contract-types.js';
import { SchemaImport } from './schema-import.js';

/** A reference of the admin document to the shipped contract: the pointer it names there. */
const API_SCHEMA_REF = /^\.\.\/\.\.\/openapi\.yaml#(\/components\/schemas\/([^/]+))$/;

type AdminDocument = OpenApiDocument & { components: { schemas: Record<string, unknown> } };

/** `admin` (parsed, not yet bundled) with the API's schemas it refers to copied in, from `api` (FILE) or `shipped`. */
export function bundledAdminDocument(admin: AdminDocument, api: Contract, shipped: Contract): AdminDocument {
  const schemas = { ...admin.components.schemas };
  const imported = new SchemaImport(schemas);
  const shippedLink = linkSchema(shipped.document)?.pointer;
  const servedLink = linkSchema(api.document);
  const refOf = (pointer: string, name: string): string =>
    pointer === shippedLink && servedLink ? imported.ref(api.document, servedLink.pointer, name) : imported.ref(shipped.document, pointer, name);
  const bundled = JSON.parse(JSON.stringify(admin), (key, value: unknown) => {
    const match = key === '$ref' && typeof value === 'string' ? API_SCHEMA_REF.exec(value) : null;
    return match ? refOf(match[1] as string, match[2] as string) : value;
  }) as AdminDocument;
  // The reviver ran on the admin's own schemas too (their references to the API's): take them
  // rewritten, and the copies made meanwhile.
  bundled.components.schemas = { ...schemas, ...bundled.components.schemas };
  return bundled;
}
