// The robustness runner under hostile input: a client that prints without end or splits its
// characters, a mock whose journal is huge. Each has a bound (README's Limits table).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { OUTPUT_TAIL_CHARS, runClient } from '../../src/robustness/client-run.js';
import { MAX_JOURNAL_READ, openTarget } from '../../src/robustness/mock-target.js';

const node = (source: string) => ({ argv: [process.execPath, '-e', source], env: { PATH: process.env['PATH'] }, timeoutMs: 30_000 });

describe('the robustness runner under hostile input', () => {
  it(`keeps the last ${OUTPUT_TAIL_CHARS} characters of a client that prints 20 MB`, async () => {
    const run = await runClient(node("const line = 'x'.repeat(1023) + '\\n'; for (let i = 0; i < 20480; i += 1) process.stdout.write(line); process.stdout.write('LAST LINE\\n'); process.exitCode = 3;"), 'http://127.0.0.1:1');
    expect(run.reason).toBe('exit 3');
    expect(run.output.length).toBeLessThanOrEqual(OUTPUT_TAIL_CHARS);
    expect(run.output.trimEnd().endsWith('LAST LINE')).toBe(true);
  });

  it('never keeps half a character: a UTF-8 sequence split between chunks, a pair cut by the bound', async () => {
    // é split across two writes (and two chunks), then emoji whose count puts the bound inside a pair.
    const source = "const e = Buffer.from('é'); process.stdout.write(e.subarray(0, 1)); setTimeout(() => { process.stdout.write(e.subarray(1)); process.stdout.write('🚀'.repeat(5000) + 'x'); }, 50);";
    const run = await runClient(node(source), 'http://127.0.0.1:1');
    expect(run.output).not.toContain('\uFFFD');
    expect(run.output).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(run.output.endsWith('🚀x')).toBe(true);
  });

  it(`reads at most ${MAX_JOURNAL_READ} journal entries after a run, however many the mock holds`, async () => {
    const limits: string[] = [];
    const newest = 1_000_000;
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://stub');
      if (url.pathname === '/__admin/requests') limits.push(url.searchParams.get('limit') ?? 'none');
      const limit = Number(url.searchParams.get('limit') ?? newest);
      const entries = url.pathname === '/__admin/requests' ? Array.from({ length: Math.min(limit, 10) }, (_, i) => ({ seq: newest - i, method: 'GET', path: '/links', variety: null })).reverse() : [];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(url.pathname.endsWith('/dimensions') ? { dimensions: [] } : { entries }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const target = await openTarget({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      const after = await target.journalAfter(0);
      expect(after.length).toBeGreaterThan(0);
      expect(limits).not.toContain('none');
      for (const limit of limits) expect(Number(limit)).toBeLessThanOrEqual(MAX_JOURNAL_READ);
    } finally {
      server.close();
    }
  });
});
