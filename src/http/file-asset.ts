// One file the mock ships (Swagger UI's assets under /docs, the favicon), served from memory: read
// once, on its first request, then answered as res.sendFile answered it (type, Cache-Control, a
// weak ETag of size and time, Last-Modified, 304 when fresh, HEAD).
//
// Why not res.sendFile: it opens a file stream per request, and the stream of a pipelined request
// whose connection dies before its turn is never closed. A bounds sweep (stop 53) sent 300
// pipelined GETs of /docs/swagger-ui-bundle.js on one socket and closed it: 297 descriptors of that
// file stayed open for good, and ~40 such connections would exhaust the default limit (EMFILE for
// every client). From memory, a request holds no descriptor, and a queued answer refers to the
// one Buffer (~2 MB in all for the three Swagger UI files).
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { RequestHandler } from 'express';

interface Loaded {
  body: Buffer;
  etag: string;
  modified: string;
}

export function fileAsset(file: string, maxAgeSeconds: number): RequestHandler {
  let loaded: Promise<Loaded> | undefined;
  const load = (): Promise<Loaded> =>
    (loaded ??= Promise.all([readFile(file), stat(file)]).then(([body, info]) => ({
      body,
      etag: `W/"${body.length.toString(16)}-${info.mtime.getTime().toString(16)}"`,
      modified: info.mtime.toUTCString(),
    })));
  return (_req, res, next) => {
    load().then(
      ({ body, etag, modified }) => {
        res.type(extname(file)).set({ 'Cache-Control': `public, max-age=${maxAgeSeconds}`, ETag: etag, 'Last-Modified': modified });
        res.send(body);
      },
      (error: unknown) => {
        // Read again at the next request: a file that was missing for a moment is not missing for ever.
        loaded = undefined;
        next(error);
      },
    );
  };
}
