// One problem (or note) with one interaction of a pact, whichever engine found it: the side of the
// exchange and the field it concerns, in words, and who said so (the report names the engine).

export type Side = 'request' | 'response' | 'interaction';

export interface Finding {
  /** The interaction's position in the pact file's interactions. */
  index: number;
  side: Side;
  /** e.g. 'path', 'status', 'body.createdAt', 'header x-api-key'; '' for the whole side. */
  field: string;
  message: string;
  /** A warning is reported but does not fail the interaction. */
  severity: 'error' | 'warning';
  /** 'swagger-mock-validator' or 'shortlink-mock'. */
  engine: string;
  /** A stable name of the rule, e.g. 'response.status.unknown', 'request.api-key.missing'. */
  code: string;
}

/** A value as it appears in a message, cut short. */
export function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
