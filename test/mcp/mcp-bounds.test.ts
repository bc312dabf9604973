// The MCP server's bounds with hostile input, on the server every transport uses (createMcpServer),
// connected in memory: at most MCP_MAX_CONCURRENT_CALLS tool calls at once, a stdio line within
// its bytes, a journal answer within its count and bytes, and check_contract's failures (all of
// them, each with its reason, within their bound), each saying when it cut.
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { AdminClient } from '../../src/toolkit/admin-client.js';
import type { JournalEntry } from '../../src/toolkit/admin-types.js';
import { boundedLines } from '../../src/toolkit/mcp/bounded-lines.js';
import type { CheckResult } from '../../src/contract/check-types.js';
import type { Report } from '../../src/contract/runner.js';
import { MCP_FAILURE_REASON_CHARS, MCP_JOURNAL_MAX_BYTES, MCP_JOURNAL_MAX_ENTRIES, MCP_MAX_CONCURRENT_CALLS, MCP_MAX_FAILURES } from '../../src/toolkit/mcp/limits.js';
import { contractSummary } from '../../src/toolkit/mcp/tools-contract.js';
import { createMcpServer, toolTarget } from '../../src/toolkit/mcp/server.js';
import { boundedJournal } from '../../src/toolkit/mcp/tools-read.js';
import { caller, jsonOf, textOf } from './mcp-client.js';

const urlOf = (server: NetServer): string => `http://127.0.0.1:${(server.address() as { port: number }).port}`;

/** Listens `target` on a free loopback port, and connects a Client in memory to an MCP server whose tools drive it as the mock. */
async function inMemoryMcp(target: NetServer): Promise<Client> {
  await new Promise<void>((done) => target.listen(0, '127.0.0.1', done));
  const server = createMcpServer(toolTarget(new AdminClient(urlOf(target)), false));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bounds', version: '0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

describe('MCP bounds', () => {
  it(`runs at most ${MCP_MAX_CONCURRENT_CALLS} tool calls at once: the next is a tool error at once, and the server goes on`, async () => {
    // A "mock" that takes connections and never answers holds each `reset` on its one admin call.
    const held = new Set<Socket>();
    let onAllHeld: () => void = () => {};
    const silent = createServer((socket) => {
      held.add(socket);
      if (held.size === MCP_MAX_CONCURRENT_CALLS) onAllHeld();
    });
    const client = await inMemoryMcp(silent);
    try {
      const allHeld = new Promise<void>((done) => (onAllHeld = done));
      const running = Array.from({ length: MCP_MAX_CONCURRENT_CALLS }, () => caller(client)('reset'));
      await allHeld;
      const refused = await caller(client)('reset');
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(new RegExp(`${MCP_MAX_CONCURRENT_CALLS} tool calls are already running`));
      for (const socket of held) socket.destroy();
      const answers = await Promise.all(running);
      // Each held call ends as a tool error naming the mock, never a crash.
      expect(answers.every((answer) => answer.isError && /did not answer/.test(textOf(answer)))).toBe(true);
      // Places free again: the next call runs (and fails on the closed socket, as a tool error of its own).
      silent.close();
      expect(textOf(await caller(client)('reset'))).toMatch(/did not answer/);
    } finally {
      await client.close();
      silent.close();
    }
  });

  it('a stdio line over the bound is skipped to its newline, in whatever chunks it comes; the lines around it pass whole', async () => {
    const refused: number[] = [];
    const lines = boundedLines((bytes) => refused.push(bytes), 10);
    const out: Buffer[] = [];
    lines.on('data', (chunk: Buffer) => out.push(chunk));
    for (const chunk of ['{"a":1}\n{"lo', 'ng":"xxxxxxxx', 'xxxx"}\n{"b":2}\n']) lines.write(chunk);
    lines.end();
    await new Promise((done) => lines.once('end', done));
    // The refused line's first bytes went on before it crossed the bound: ended there by a newline, they are one bad line, never joined to the next.
    expect(Buffer.concat(out).toString().split('\n')).toEqual(['{"a":1}', '{"lo', '{"b":2}', '']);
    expect(refused).toEqual([24]);
  });

  it(`check_contract lists at most ${MCP_MAX_FAILURES} failures, each reason cut to ${MCP_FAILURE_REASON_CHARS} characters, and says how many more`, () => {
    const failed = (index: number): CheckResult => ({ id: `check-${index}`, operationId: 'createLink', expectedStatus: 201, title: 't', rule: false, ms: 1, outcome: { status: 'failed', reason: 'r'.repeat(10_000) } });
    const report = { baseUrl: 'http://x', counts: { checked: 250, passed: 0, failed: 250, notChecked: 0 }, seed: 1, fuzzRuns: 0, ms: 1, results: Array.from({ length: 250 }, (_, index) => failed(index)) } as unknown as Report;
    const summary = contractSummary(report) as { failures: Array<{ reason: string }>; cut: string };
    expect(summary.failures).toHaveLength(MCP_MAX_FAILURES);
    expect(summary.failures[0]?.reason.length).toBeLessThan(MCP_FAILURE_REASON_CHARS + 50);
    expect(summary.cut).toBe('50 more failures not listed');
  });

  it('check_contract against a server that breaks the contract answers every failure with its reason', async () => {
    const broken = createHttpServer((_req, res) => res.writeHead(500, { 'content-type': 'application/json' }).end('{}'));
    const client = await inMemoryMcp(broken);
    const url = urlOf(broken);
    try {
      const summary = jsonOf<{ counts: { failed: number }; failures: Array<{ id: string; reason: string }> }>(await caller(client)('check_contract', { baseUrl: url, apiKey: 'demo-key', fuzzRuns: 0 }));
      expect(summary.counts.failed).toBeGreaterThan(0);
      expect(summary.failures).toHaveLength(summary.counts.failed);
      expect(summary.failures.every((failure) => failure.id !== '' && failure.reason !== '')).toBe(true);
    } finally {
      await client.close();
      broken.close();
    }
  });

  const entry = (seq: number, bodyChars: number): JournalEntry => ({ seq, time: '', method: 'POST', path: '/links', operationId: 'createLink', apiKey: null, accountId: null, status: 201, durationMs: 1, scenario: null, fault: null, verdict: 'valid' as JournalEntry['verdict'], requestBody: 'x'.repeat(bodyChars), responseBody: null });

  it(`a journal answer holds at most ${MCP_JOURNAL_MAX_BYTES} bytes, newest first, and says what it cut`, () => {
    const entries = Array.from({ length: MCP_JOURNAL_MAX_ENTRIES + 1 }, (_, index) => entry(index, 12_000));
    const answer = boundedJournal(entries, MCP_JOURNAL_MAX_ENTRIES, 5_000);
    expect(Buffer.byteLength(JSON.stringify(answer.entries))).toBeLessThanOrEqual(MCP_JOURNAL_MAX_BYTES);
    expect(answer.entries[0]?.seq).toBe(MCP_JOURNAL_MAX_ENTRIES);
    expect(answer.cut).toMatch(/asked 5000, at most 100 entries/);
    expect(answer.cut).toMatch(/older entries left out to stay within 262144 bytes/);
  });

  it('a small journal is answered whole, with no cut', () => {
    expect(boundedJournal([entry(1, 10), entry(2, 10)], 20, undefined)).toEqual({ entries: [entry(2, 10), entry(1, 10)] });
    expect(jsonOf({ content: [{ type: 'text', text: '{}' }] })).toEqual({});
  });
});
