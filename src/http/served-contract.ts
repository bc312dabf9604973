// GET /openapi.yaml (and the admin API's document) as served: the file as written, except that its
// `servers` block names the address this very request came in on. The file says
// http://127.0.0.1:4010, the default; a mock on another port or host would otherwise send Swagger
// UI's "Try it out" and every client generated from the served document to another mock, or to
// nothing. The Host header is the client's to write, so only a plain host[:port] is echoed; any
// other value gets a relative server URL ("/"), which tools resolve against the document's URL.
import type { Request, RequestHandler } from 'express';

const PLAIN_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * Splits the document around its top-level `servers:` block once, on the first request (the
 * admin document's text is only written then); each request only joins.
 */
export function servedContract(text: () => string): RequestHandler {
  let parts: { before: string; after: string } | undefined;
  return (req, res) => {
    parts ??= splitAtServers(text());
    const block = `servers:\n  - url: ${serverUrl(req)}\n    description: this mock, at the address this document was served from`;
    res.type('application/yaml').send(`${parts.before}\n${block}\n${parts.after}`);
  };
}

function splitAtServers(text: string): { before: string; after: string } {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line === 'servers:');
  if (start === -1) throw new Error('the contract has no top-level servers block to rewrite');
  let end = start + 1;
  while (end < lines.length && /^\s+\S|^\s*$/.test(lines[end] ?? '')) end++;
  return { before: lines.slice(0, start).join('\n'), after: lines.slice(end).join('\n') };
}

export function serverUrl(req: Request): string {
  const host = req.headers.host;
  return host !== undefined && PLAIN_HOST.test(host) ? `http://${host}` : '/';
}
