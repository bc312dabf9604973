// The rule of a key that may name an account (src/core/api-key-shape.ts) is the admin document's
// ApiKey schema, read from it: a change to one is a change to the other.
import { describe, expect, it } from 'vitest';
import { API_KEY_SHAPE } from '../../src/core/api-key-shape.js';
import { readAdminContract } from '../../src/contract/package-files.js';

describe("the API key's shape", () => {
  it("is the admin document's ApiKey schema: visible ASCII, 1 to 200 characters", () => {
    const schema = (readAdminContract().document as unknown as { components: { schemas: Record<string, { pattern?: string; minLength?: number; maxLength?: number }> } }).components.schemas['ApiKey'];
    expect(schema).toMatchObject({ pattern: '^[!-~]+$', minLength: 1, maxLength: 200 });
    expect(API_KEY_SHAPE.pattern.source).toBe(`${schema?.pattern?.slice(0, -2)}{${schema?.minLength},${schema?.maxLength}}$`);
  });
});
