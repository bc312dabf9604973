// The request-body validators of the reference server, compiled from openapi.yaml's own schemas so
// that the reference server accepts exactly what the contract accepts and nothing else.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { CONTRACT_FILE } from '../../src/contract/package-files.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export interface RequestValidators {
  create: ValidateFunction;
  update: ValidateFunction;
}

export function requestValidators(): RequestValidators {
  const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
  ajv.addSchema(parse(readFileSync(CONTRACT_FILE, 'utf8')) as object, 'openapi');
  return { create: ajv.compile({ $ref: 'openapi#/components/schemas/CreateLinkRequest' }), update: ajv.compile({ $ref: 'openapi#/components/schemas/UpdateLinkRequest' }) };
}

export function ajvText(validate: ValidateFunction): string {
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`).join('; ');
}
