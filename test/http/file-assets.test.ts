// The files the mock ships (Swagger UI under /docs, the favicon: src/http/file-asset.ts) hold no file descriptor per
// request. res.sendFile opened a stream per request, and the streams of pipelined requests whose
// connection died before their turn were never closed: a bounds sweep (stop 53) saw 297 of 300
// stay open for good. Here: 200 pipelined GETs on one socket, the client gone after the first
// bytes; once the server has closed that connection, no descriptor of the file is open.
import { once } from 'node:events';
import { readdirSync, readlinkSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/test-app.js';

/** This process's descriptors open on a file whose path ends with `name`. */
function openOn(name: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).endsWith(name);
    } catch {
      return false; // closed between the listing and the read
    }
  }).length;
}

describe('a shipped file asked for by pipelined requests of a client that goes away', () => {
  // The favicon (1 KiB) is served the same way, but it never held a descriptor: a file stream that
  // reads a whole file at once closes it. These three are each over a stream's 64 KiB buffer.
  it.each(['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/swagger-ui-standalone-preset.js'])('%s leaves no descriptor open', async (path) => {
    const t = await createTestApp();
    const server = t.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const served = once(server, 'connection') as Promise<[Socket]>;
      const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
      // The server may reset the connection of a client that sends more than it reads: that is its right.
      client.on('error', () => undefined);
      await once(client, 'connect');
      client.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`.repeat(200));
      const [socket] = await served;
      await new Promise((resolve) => client.once('data', resolve).once('close', resolve));
      // Not events.once: the server's side sees the client's reset as an 'error' before its 'close'.
      const closed = new Promise((resolve) => socket.on('close', resolve));
      client.destroy();
      await closed;
      expect(openOn(path.slice('/docs/'.length))).toBe(0);
    } finally {
      server.close();
    }
  });
});

describe('a shipped file served from memory', () => {
  it('is cached as sendFile had it: Cache-Control, an ETag and Last-Modified, and 304 when the client has it', async () => {
    const t = await createTestApp();
    const first = await t.request.get('/docs/swagger-ui.css');
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=3600');
    expect(first.headers['etag']).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    expect(Date.parse(first.headers['last-modified'] as string)).not.toBeNaN();
    expect((await t.request.get('/docs/swagger-ui.css').set('If-None-Match', first.headers['etag'] as string)).status).toBe(304);
    expect((await t.request.get('/favicon.ico')).headers['cache-control']).toBe('public, max-age=86400');
  });
});
