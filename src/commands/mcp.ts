// `shortlink-mock mcp`: the MCP server over stdio, for coding agents that start a command. It
// starts a mock of its own (port 0, in memory unless --db says otherwise, every mock flag
// accepted), or with --base-url drives a running one through its admin API. Stdout carries only
// protocol messages: every log line, the mock's included, goes to stderr. Exits, stopping its own
// mock, when stdin closes or on SIGTERM/SIGINT. Called by src/cli.ts with process.env.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigError, parseConfig } from '../process/config.js';
import type { Config } from '../process/config-types.js';
import { requireSafeAdmin, startFromConfig, stopStarted, type StartedMock } from '../process/startup.js';
import { AdminClient } from '../toolkit/admin-client.js';
import { parseAdminFlags, UsageError } from '../toolkit/admin-flags.js';
import { boundedLines } from '../toolkit/mcp/bounded-lines.js';
import { MCP_MAX_MESSAGE_BYTES } from '../toolkit/mcp/limits.js';
import { checkingParams } from '../toolkit/mcp/params-check.js';
import { createMcpServer, toolTarget } from '../toolkit/mcp/server.js';
import { EXIT_OK, EXIT_USAGE } from './admin-command.js';

const STOP_GRACE_MS = 2_000;

const USAGE = `Usage: shortlink-mock mcp [mock options]
       shortlink-mock mcp --base-url URL [--admin-token TOKEN]

An MCP (Model Context Protocol) server over stdio, for coding agents: tools to read the mock, force
scenarios, create accounts, read the journal and coverage, run the contract suite (docs/mcp.md).
Without --base-url it starts a mock of its own on a free port (--port 0), in memory (--db :memory:)
unless told otherwise, and takes every option of the mock (see shortlink-mock --help). With
--base-url it drives a mock already running there (MOCK_BASE_URL, MOCK_ADMIN_TOKEN work too).
Stdout carries only protocol messages; logs go to stderr. Exits when stdin closes or on SIGTERM.

Agent configuration: {"command": "npx", "args": ["shortlink-mock", "mcp"]}`;

export const mcpHelpText = (): string => USAGE;

/** The flags that say "drive a running mock" rather than "start one". */
const REMOTE = /^--(base-url|admin-token)(=|$)/;

export async function runMcpCommand(argv: readonly string[], env: Record<string, string | undefined>): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return EXIT_OK;
  }
  // Only protocol messages on stdout: anything printed with console.log (the mock's lines among them) goes to stderr.
  console.log = console.error;
  let started: StartedMock | undefined;
  let client: AdminClient;
  let proxy: boolean | undefined;
  try {
    if (argv.some((arg) => REMOTE.test(arg)) || env['MOCK_BASE_URL'] !== undefined) {
      const parsed = parseAdminFlags(argv, env, []);
      if (parsed === 'help') throw new UsageError('unreachable');
      client = new AdminClient(parsed.target.baseUrl, parsed.target.token ? { adminToken: parsed.target.token.value } : {});
    } else {
      const config = ownMockConfig(argv, env);
      requireSafeAdmin(config);
      started = await startFromConfig(config, (line) => process.stderr.write(`${line}\n`));
      process.stderr.write(`shortlink-mock mcp: mock at ${started.url}\n`);
      client = new AdminClient(started.url, config.adminToken === undefined ? {} : { adminToken: config.adminToken });
      proxy = config.proxy !== undefined;
    }
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof ConfigError || (error as Error).name === 'StartupError')) throw error;
    process.stderr.write(`shortlink-mock mcp: ${(error as Error).message} (see shortlink-mock mcp --help)\n`);
    return EXIT_USAGE;
  }
  return serveStdio(client, proxy, started);
}

/** The CLI's config with this command's defaults: a free port, no file, one process. */
function ownMockConfig(argv: readonly string[], env: Record<string, string | undefined>): Readonly<Config> {
  const given = parseConfig(argv, env);
  const defaults = [...(given.sources['port'] ? [] : ['--port', '0']), ...(given.sources['db'] ? [] : ['--db', ':memory:'])];
  const config = defaults.length === 0 ? given : parseConfig([...defaults, ...argv], env);
  // node:cluster workers would each be a server of their own, none of them on this stdio.
  if (config.workers !== 1) throw new ConfigError(`mcp runs one mock in its own process: ${config.sources['workers'] ?? '--workers'} is not for it`);
  return config;
}

async function serveStdio(client: AdminClient, proxy: boolean | undefined, started: StartedMock | undefined): Promise<number> {
  const server = createMcpServer(toolTarget(client, proxy));
  const input = process.stdin.pipe(boundedLines((bytes) => process.stderr.write(`shortlink-mock mcp: refused a message of more than ${MCP_MAX_MESSAGE_BYTES} bytes (${bytes} read)\n`)));
  const transport = checkingParams(new StdioServerTransport(input, process.stdout));
  transport.onerror = (error) => process.stderr.write(`shortlink-mock mcp: ${error.message}\n`);
  await server.connect(transport);
  const closed = new Promise<string>((done) => {
    input.once('end', () => done('stdin closed'));
    process.stdin.once('error', () => done('stdin failed'));
    process.once('SIGTERM', () => done('SIGTERM'));
    process.once('SIGINT', () => done('SIGINT'));
  });
  const why = await closed;
  process.stderr.write(`shortlink-mock mcp: ${why}: stopping\n`);
  await server.close().catch(() => undefined);
  if (started) await stopStarted(started, STOP_GRACE_MS);
  return EXIT_OK;
}
