// The SDK's own Client over the two transports, and the reading of a tool's JSON answer: what the
// MCP tests share.
import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from '../helpers/cli-process.js';
import { loopbackEnv } from '../helpers/loopback-env.js';

export const TOOL_NAMES = ['check_contract', 'clear_scenario', 'clear_variety', 'coverage', 'create_account', 'drift', 'journal', 'mock_info', 'reset', 'set_variety', 'use_scenario'];

export interface StdioMcp {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  /** Resolves when stderr matches, event-driven; rejects after a bound. */
  waitForStderr: (pattern: RegExp) => Promise<void>;
  /** The spawned CLI. */
  child: () => ChildProcess;
  /** What the client could not read: a line on stdout that is not a protocol message lands here. */
  errors: Error[];
}

const STDERR_LIMIT_MS = 10_000;

/** The environment the spawned CLI gets: the test's own, without its MOCK_* variables, on loopback. */
export const cliEnv = (): Record<string, string> => loopbackEnv(Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !entry[0].startsWith('MOCK_'))));

/** Spawns the built CLI's `mcp` with `args`, connected with the SDK's Client. */
export async function stdioMcp(args: string[] = []): Promise<StdioMcp> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], env: cliEnv(), stderr: 'pipe' });
  let stderr = '';
  const stream = transport.stderr;
  stream?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'shortlink-mock-test', version: '0.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  const waitForStderr = (pattern: RegExp): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (!pattern.test(stderr)) return;
        clearTimeout(timer);
        stream?.off('data', check);
        resolve();
      };
      const timer = setTimeout(() => {
        stream?.off('data', check);
        reject(new Error(`stderr never matched ${String(pattern)}:\n${stderr}`));
      }, STDERR_LIMIT_MS);
      stream?.on('data', check);
      check();
    });
  return { client, transport, stderr: () => stderr, waitForStderr, errors, child: () => (transport as unknown as { _process: ChildProcess })._process };
}

/** Connects the SDK's Client to a mock's /__admin/mcp. */
export async function httpMcp(baseUrl: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'shortlink-mock-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/__admin/mcp`), { requestInit: { headers } }));
  return client;
}

export type Call = (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;

export const caller =
  (client: Client): Call =>
  async (name, args = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

/** The tool's text. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

/** The tool's JSON answer; throws when the tool answered an error. */
export function jsonOf<T = Record<string, unknown>>(result: CallToolResult): T {
  if (result.isError) throw new Error(`tool error: ${textOf(result)}`);
  return JSON.parse(textOf(result)) as T;
}
