// A varied answer's HTTP envelope: Content-Type with or without its charset, chunked framing or a
// Content-Length, gzip when the request's Accept-Encoding allows it. Express's res.send always adds
// the charset and a Content-Length, so the varied answer is written here instead.
import { gzipSync } from 'node:zlib';
import type { Response } from 'express';
import type { OperationPlan } from '../variety/plan.js';

/** What variety chose for one request (src/http/variety.ts decides it, res.locals carries it). */
export interface ChosenVariety {
  seed: number;
  /** undefined: the seed varies nothing of this operation. */
  plan: OperationPlan | undefined;
  /** The dimensions that changed this answer, for the journal. */
  used: string[];
  bodyVaried: boolean;
}

/**
 * The largest body gzipped (synchronously, on the event loop): far above any answer the contract
 * allows (a Link is a few KiB at most); a larger one is sent as it is, the dimension not used.
 */
export const GZIP_MAX_BYTES = 1024 * 1024;

export function sendInEnvelope(res: Response, chosen: ChosenVariety, text: string): void {
  const envelope = chosen.plan?.envelope ?? {};
  const used = (dimension: string | undefined): boolean => dimension !== undefined && chosen.used.push(dimension) > 0;
  res.setHeader('Content-Type', used(envelope.noCharset) ? 'application/json' : 'application/json; charset=utf-8');
  let payload = Buffer.from(text, 'utf8');
  // Only when the request says it takes gzip: no Accept-Encoding at all allows it in theory, not in practice.
  const takesGzip = res.req.headers['accept-encoding'] !== undefined && res.req.acceptsEncodings('gzip', 'identity') === 'gzip';
  if (envelope.gzip && takesGzip && payload.length <= GZIP_MAX_BYTES && used(envelope.gzip)) {
    payload = gzipSync(payload);
    res.setHeader('Content-Encoding', 'gzip');
    res.vary('Accept-Encoding');
  }
  if (used(envelope.chunked)) {
    res.removeHeader('Content-Length');
    res.write(payload);
    res.end();
    return;
  }
  res.setHeader('Content-Length', payload.length);
  res.end(payload);
}
