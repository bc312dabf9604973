// A request whose params its method's schema refuses is a JSON-RPC error -32602 (Invalid params)
// with a one-line message, over stdio and over /__admin/mcp; the SDK alone answers -32603 with the
// whole ZodError (src/toolkit/mcp/params-check.ts says why).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/toolkit/start-mock.js';
import { invalidParams } from '../../src/toolkit/mcp/params-check.js';
import { CLI } from '../helpers/cli-process.js';
import { holdRefusingPort } from '../helpers/refusing-port.js';
import { cliEnv } from './mcp-client.js';

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } };
const NOT_AN_OBJECT = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'mock_info', arguments: 'notanobject' } };
const NO_NAME = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: {} };

const refused = (id: number, message: string) => ({ jsonrpc: '2.0', id, error: { code: -32602, message } });
const ARGUMENTS_REFUSED = refused(2, 'Invalid params for tools/call: params.arguments: Invalid input: expected record, received string');
const NAME_REFUSED = refused(3, 'Invalid params for tools/call: params.name: Invalid input: expected string, received undefined');

describe('invalidParams', () => {
  it.each([
    ['a tools/call with an object of arguments', { ...NOT_AN_OBJECT, params: { name: 'mock_info', arguments: {} } }, undefined],
    ['a method the server does not answer (the server says so itself)', { jsonrpc: '2.0', id: 4, method: 'prompts/list', params: { cursor: 7 } }, undefined],
    ['arguments that are not an object', NOT_AN_OBJECT, ARGUMENTS_REFUSED],
    ['no name', NO_NAME, NAME_REFUSED],
    ['resources/read without a uri', { jsonrpc: '2.0', id: 5, method: 'resources/read', params: {} }, refused(5, 'Invalid params for resources/read: params.uri: Invalid input: expected string, received undefined')],
  ])('%s', (_name, request, expected) => {
    expect(invalidParams(request as Parameters<typeof invalidParams>[0])).toEqual(expected);
  });
});

describe('over stdio', () => {
  it('answers -32602 in one line, and the server goes on', async () => {
    const closed = await holdRefusingPort();
    const child = spawn(process.execPath, [CLI, 'mcp', '--base-url', closed.url], { env: cliEnv() });
    try {
      const answers = new Map<unknown, unknown>();
      const lines = createInterface({ input: child.stdout });
      const wanted = new Promise<void>((done) =>
        lines.on('line', (line) => {
          const message = JSON.parse(line) as { id?: unknown };
          answers.set(message.id, message);
          if ([1, 2, 3, 4].every((id) => answers.has(id))) done();
        }),
      );
      for (const message of [INITIALIZE, { jsonrpc: '2.0', method: 'notifications/initialized' }, NOT_AN_OBJECT, NO_NAME, { jsonrpc: '2.0', id: 4, method: 'tools/list' }]) child.stdin.write(`${JSON.stringify(message)}\n`);
      await wanted;
      expect(answers.get(2)).toEqual(ARGUMENTS_REFUSED);
      expect(answers.get(3)).toEqual(NAME_REFUSED);
      expect(answers.get(4)).toHaveProperty('result.tools');
    } finally {
      const exited = child.exitCode === null ? new Promise((done) => child.once('exit', done)) : Promise.resolve();
      child.stdin.end();
      await exited;
      await closed.release();
    }
  });
});

describe('over /__admin/mcp', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ log: () => {} });
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it.each([
    [NOT_AN_OBJECT, ARGUMENTS_REFUSED],
    [NO_NAME, NAME_REFUSED],
  ])('%j: -32602 in one line', async (message, expected) => {
    const answer = await fetch(`${mock.url}/__admin/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(message) });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual(expected);
  });
});
