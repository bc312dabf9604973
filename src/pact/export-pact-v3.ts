// The shape of the Pact file `pact export` writes: Pact specification V3 (request/response
// interactions, provider states with params, matchingRules by category). V3 because every current
// verifier reads it (pact-js, pact-jvm, the Rust verifier, Pactflow) and it has all we need.

export const PACT_SPECIFICATION_VERSION = '3.0.0';

/** A V3 matcher: the value's type as in the example, or a string matching a regular expression. */
export type Matcher = { match: 'type' } | { match: 'regex'; regex: string };

/** JSON path (`$.id`, `$.tags[*].id`) → the matchers that replace equality there. */
export type PathRules = Record<string, { matchers: Matcher[]; combine?: 'AND' | 'OR' }>;

export interface MatchingRules {
  body?: PathRules;
  header?: PathRules;
}

export interface ProviderState {
  name: string;
  params?: Record<string, unknown>;
}

export interface PactRequest {
  method: string;
  path: string;
  query?: Record<string, string[]>;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface PactResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  matchingRules?: MatchingRules;
}

export interface PactInteraction {
  description: string;
  providerStates?: ProviderState[];
  request: PactRequest;
  response: PactResponse;
}

export interface PactFile {
  consumer: { name: string };
  provider: { name: string };
  interactions: PactInteraction[];
  metadata: { pactSpecification: { version: string }; 'shortlink-mock': { version: string; source: string } };
}
