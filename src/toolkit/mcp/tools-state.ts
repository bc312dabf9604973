// The tools that change what the mock answers: scenarios, accounts, reset, variety. Each is one
// admin call; the mock checks the values (an unknown scenario is its own 400 with a did-you-mean),
// the schemas only their types, so the agent reads the mock's words.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { MAX_SCENARIO_TIMES } from '../../core/scenario-uses.js';
import { jsonAnswer, runTool, type ToolTarget } from './tool-target.js';

/** An API key as the tools take it: the mock judges the rest. */
export const apiKeyField = z.string().min(1).max(1024);
const names = z.array(z.string().min(1).max(200)).max(1000);

export function registerStateTools(server: McpServer, target: ToolTarget): void {
  const { control } = target;
  server.registerTool(
    'use_scenario',
    {
      description:
        "Make the mock answer as a scenario says (e.g. 'link-limit-reached', 'slow', 'unauthorized'): globally, or only for requests with `apiKey`; with `times`, only for the next N requests it shapes, then it clears itself. mock_info lists the scenarios. An unknown name is an error with the mock's guess at what was meant.",
      inputSchema: {
        name: z.string().min(1).max(200).describe('A scenario name, as mock_info lists them'),
        apiKey: apiKeyField.optional().describe('Only requests with this x-api-key; default: every request'),
        // A number only: the mock judges the value (1 to MAX_SCENARIO_TIMES, a whole number), in its own words.
        times: z.number().optional().describe(`Shape only the next N requests the scenario applies to (a forced answer, fault or delay), then clear it; 1 to ${MAX_SCENARIO_TIMES}. Default: until clear_scenario`),
      },
    },
    ({ name, apiKey, times }) => runTool(target, 'use_scenario', async () => jsonAnswer(await control.useScenario(name, definedOnly({ apiKey, times })))),
  );
  server.registerTool(
    'clear_scenario',
    { description: 'Back to normal answers: clears the global scenario, or the one of `apiKey` only.', inputSchema: { apiKey: apiKeyField.optional() } },
    ({ apiKey }) => runTool(target, 'clear_scenario', async () => jsonAnswer(await control.useScenario(null, apiKey === undefined ? {} : { apiKey }))),
  );
  server.registerTool(
    'create_account',
    {
      description: 'A fresh, isolated account; answers it with its new API key (send it as x-api-key).',
      inputSchema: {
        name: z.string().min(1).max(200).optional(),
        linkLimit: z.number().int().min(0).optional().describe('Its link limit'),
        seedLinks: z.number().int().min(0).optional().describe('Links it starts with (0 to 1000, at most linkLimit); default 0'),
      },
    },
    (options) => runTool(target, 'create_account', async () => jsonAnswer(await control.account(definedOnly(options)))),
  );
  server.registerTool('reset', { description: 'Back to the seeded fixtures; the journal and scenarios stay, the scenario counters start over.', inputSchema: {} }, () =>
    runTool(target, 'reset', async () => jsonAnswer(await control.reset())),
  );
  server.registerTool(
    'set_variety',
    {
      description: 'Variety mode: every answer drawn under `seed` from the answers the contract allows (fields absent, lists empty, other documented statuses), globally or for `apiKey`; `only`/`except` name dimensions.',
      inputSchema: { seed: z.number().int().min(0), apiKey: apiKeyField.optional(), only: names.optional(), except: names.optional() },
    },
    ({ seed, ...options }) => runTool(target, 'set_variety', async () => jsonAnswer(await control.useVariety(seed, definedOnly(options)))),
  );
  server.registerTool('clear_variety', { description: 'Variety off, globally or for `apiKey`.', inputSchema: { apiKey: apiKeyField.optional() } }, ({ apiKey }) =>
    runTool(target, 'clear_variety', async () => {
      await control.clearVariety(apiKey === undefined ? {} : { apiKey });
      return jsonAnswer({ variety: 'off', ...(apiKey === undefined ? {} : { apiKey }) });
    }),
  );
}

/** Without the keys whose value is undefined: the admin API refuses what its contract does not know, and an explicit undefined is no value. */
export function definedOnly<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}
