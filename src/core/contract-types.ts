// The loaded contract's types, in one module that imports nothing, so that whoever reads,
// serves or checks a contract (the server, the admin API, the contract and pact commands, the
// package files) names them without importing the server.

export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export interface Contract {
  /** openapi.yaml, parsed. */
  document: OpenApiDocument;
  /** openapi.yaml as written, served at GET /openapi.yaml. */
  text: string;
}
