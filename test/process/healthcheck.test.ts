// The image's health check (src/process/healthcheck.ts, listening-sockets.ts): the kernel's tables
// of listening sockets read right, and the check's bounds: at most MAX_LISTENERS_ASKED listeners
// asked, and a listener that never answers costs at most the deadline.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anyReady, containerListeners, MAX_LISTENERS_ASKED } from '../../src/process/healthcheck.js';
import { listenersOf } from '../../src/process/listening-sockets.js';
import { holdRefusingPort } from '../helpers/refusing-port.js';

const HEADER = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';
const row = (local: string, state: string) => `   0: ${local} 00000000:0000 ${state} 00000000:00000000 00:00000000 00000000  1000        0 12345 1 0000000000000000 100 0 0 10 0`;
const at = (host: string, port: number) => ({ host, port, inode: '12345' });

describe('listenersOf: the LISTEN rows of /proc/net/tcp and tcp6', () => {
  it.each([
    ['IPv4 loopback', 4, row('0100007F:0FA2', '0A'), [at('127.0.0.1', 4002)]],
    ['IPv4 any address: asked on loopback', 4, row('00000000:1388', '0A'), [at('127.0.0.1', 5000)]],
    ['IPv4 of an interface', 4, row('0500580A:0FAA', '0A'), [at('10.88.0.5', 4010)]],
    ['an established connection is no listener', 4, row('0100007F:0FA2', '01'), []],
    ['IPv6 loopback', 6, row('00000000000000000000000001000000:0FA2', '0A'), [at('::1', 4002)]],
    ['IPv6 any address: asked on ::1', 6, row('00000000000000000000000000000000:1388', '0A'), [at('::1', 5000)]],
    ['IPv4-mapped IPv6', 6, row('0000000000000000FFFF00000100007F:0FAA', '0A'), [at('127.0.0.1', 4010)]],
    ['IPv6 of an interface', 6, row('000080FE00000000FF4E5A0201A3FEFF:0FAA', '0A'), [at('fe80::25a:4eff:fffe:a301', 4010)]],
  ] as const)('%s', (_what, family, line, expected) => {
    expect(listenersOf(`${HEADER}\n${line}\n`, family)).toEqual(expected);
  });

  it("reads this machine's own table: a server listening now is among them", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      expect(containerListeners()).toContainEqual(expect.objectContaining({ host: '127.0.0.1', port: (server.address() as AddressInfo).port }));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('containerListeners: only the sockets a visible process holds', () => {
  it('a listener of the network namespace held by no process in sight (--network host: the host\'s others) is not asked', () => {
    const proc = mkdtempSync(join(tmpdir(), 'slm-proc-'));
    try {
      mkdirSync(join(proc, 'net'));
      const tcpRow = (local: string, inode: number) => row(local, '0A').replace(' 12345 ', ` ${inode} `);
      writeFileSync(join(proc, 'net', 'tcp'), `${HEADER}\n${tcpRow('0100007F:0FA2', 111)}\n${tcpRow('0100007F:0FAA', 222)}\n`);
      mkdirSync(join(proc, '1', 'fd'), { recursive: true });
      symlinkSync('socket:[111]', join(proc, '1', 'fd', '3'));
      symlinkSync('/dev/null', join(proc, '1', 'fd', '0'));
      mkdirSync(join(proc, 'self'));
      expect(containerListeners(proc)).toEqual([{ host: '127.0.0.1', port: 4002, inode: '111' }]);
    } finally {
      rmSync(proc, { recursive: true, force: true });
    }
  });
});

describe('anyReady', () => {
  const servers: Server[] = [];
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });
  /**
   * A server answering every request with `status` (or never answering: null); counts the
   * connections that asked for the ready route: another test file's client, running in parallel,
   * may still connect to a port the OS has handed out again (a stray connection failed a run).
   */
  async function serving(status: number | null): Promise<{ port: number; connections: () => number }> {
    let connections = 0;
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => undefined);
      socket.once('data', (chunk: Buffer) => {
        if (chunk.toString('latin1').startsWith('GET /__admin/ready ')) connections += 1;
        if (status !== null) socket.end(`HTTP/1.1 ${status} X\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as AddressInfo).port, connections: () => connections };
  }

  it('true for a 200, false for a 503 or a refused connection', async () => {
    const ready = await serving(200);
    const notReady = await serving(503);
    const refusing = await holdRefusingPort();
    try {
      expect(await anyReady([{ host: '127.0.0.1', port: ready.port }])).toBe(true);
      expect(await anyReady([{ host: '127.0.0.1', port: notReady.port }])).toBe(false);
      expect(await anyReady([{ host: '127.0.0.1', port: refusing.port }, { host: '127.0.0.1', port: ready.port }])).toBe(true);
      expect(await anyReady([])).toBe(false);
    } finally {
      await refusing.release();
    }
  });

  it('a listener that never answers: false once the deadline passes, the others not asked', async () => {
    const silent = await serving(null);
    const ready = await serving(200);
    expect(await anyReady([{ host: '127.0.0.1', port: silent.port }, { host: '127.0.0.1', port: ready.port }], 200)).toBe(false);
    expect(ready.connections()).toBe(0);
  });

  it(`asks at most ${MAX_LISTENERS_ASKED} listeners`, async () => {
    const notReady = await Promise.all(Array.from({ length: MAX_LISTENERS_ASKED }, () => serving(503)));
    const ready = await serving(200);
    const listeners = [...notReady, ready].map(({ port }) => ({ host: '127.0.0.1', port }));
    expect(await anyReady(listeners)).toBe(false);
    expect(notReady.map((server) => server.connections())).toEqual(notReady.map(() => 1));
    expect(ready.connections()).toBe(0);
  });
});
