// Each operation's request body as the contract declares it, by operationId, a `$ref` to
// components.requestBodies followed: what the steps in front of the validator read
// (array-bounds.ts, required-body.ts), so that a new contract changes data, not code.
import type { Request, Response } from 'express';
import { resolveLocalRef } from '../../core/array-bounds.js';
import type { OpenApiDocument } from '../../core/contract-types.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export interface RequestBody {
  $ref?: string;
  required?: boolean;
  content?: Record<string, { schema?: unknown }>;
}

/** A check in front of the validator: its refusal, shaped as the validator's own error, or undefined to go on. */
export type EarlyRefusal = (req: Request, res: Response) => { status: number; path: string; message: string; errors: { path: string; message: string; errorCode: string }[] } | undefined;

export function requestBodies(document: OpenApiDocument): Map<string, RequestBody> {
  const bodies = new Map<string, RequestBody>();
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as { operationId?: string; requestBody?: RequestBody } | undefined;
      const body = operation?.requestBody?.$ref ? (resolveLocalRef(document, operation.requestBody.$ref) as RequestBody | undefined) : operation?.requestBody;
      if (operation?.operationId && body) bodies.set(operation.operationId, body);
    }
  }
  return bodies;
}
