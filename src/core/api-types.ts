// The request and response types of the API, taken from the types generated from openapi.yaml
// (`npm run gen:types`). Code imports these names, never the generated file's internals.
import type { components } from '../generated/openapi.js';

type Schemas = components['schemas'];

export type Link = Schemas['Link'];
export type Domain = Schemas['Domain'];
export type Tag = Schemas['Tag'];
export type ErrorBody = Schemas['Error'];
export type ErrorCode = NonNullable<ErrorBody['code']>;
export type CreateLinkRequest = Schemas['CreateLinkRequest'];
export type UpdateLinkRequest = Schemas['UpdateLinkRequest'];
