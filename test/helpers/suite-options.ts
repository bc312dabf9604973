// The contract suite's options for a startMock() mock with the fixture accounts: every key and
// domain it needs, so that no check is skipped.
import type { ContractOptions, RunningMock } from '../../src/index.js';

export async function fixtureSuiteOptions(mock: RunningMock, more: Partial<ContractOptions>): Promise<ContractOptions> {
  const [limitedLink] = await mock.links(mock.apiKeys.limitedKey);
  return {
    baseUrl: mock.url,
    apiKey: mock.apiKeys.demoKey,
    otherApiKey: mock.apiKeys.otherKey,
    otherDomain: 'go.acme.test',
    otherAccountDomain: 'links.globex.test',
    limitedApiKey: mock.apiKeys.limitedKey,
    limitedLinkId: limitedLink?.id,
    ...more,
  };
}
