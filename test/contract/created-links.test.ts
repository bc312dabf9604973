// The clean-up of the links the checks left, and the sentence the report prints about it.
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../../contract-tests/servers.js';
import { ContractClient } from '../../src/contract/client.js';
import { CreatedLinks, describeCleanup, type CleanupResult } from '../../src/contract/created-links.js';

let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('describeCleanup', () => {
  it.each<[string, CleanupResult, ReturnType<typeof describeCleanup>]>([
    ['nothing to delete', { deleted: [], leftBehind: [] }, { status: 'passed', note: 'The checks left no links behind.' }],
    ['one link deleted', { deleted: ['lnk_1'], leftBehind: [] }, { status: 'passed', note: 'Deleted the 1 link the checks left behind.' }],
    ['three links deleted', { deleted: ['lnk_1', 'lnk_2', 'lnk_3'], leftBehind: [] }, { status: 'passed', note: 'Deleted the 3 links the checks left behind.' }],
    [
      'two of three not deleted',
      { deleted: ['lnk_1'], leftBehind: [{ id: 'lnk_2', why: 'DELETE answered 500' }, { id: 'lnk_3', why: 'no answer within 10 ms' }] },
      { status: 'failed', reason: 'Could not delete 2 of the 3 links the checks left behind: lnk_2 (DELETE answered 500), lnk_3 (no answer within 10 ms).' },
    ],
    ['the only one not deleted', { deleted: [], leftBehind: [{ id: 'lnk_9', why: 'DELETE answered 403' }] }, { status: 'failed', reason: 'Could not delete the 1 link the checks left behind: lnk_9 (DELETE answered 403).' }],
  ])('%s', (_name, result, outcome) => {
    expect(describeCleanup(result)).toEqual(outcome);
  });
});

describe('CreatedLinks', () => {
  it('deletes each created link it has not seen deleted, and names the ones the server would not delete', async () => {
    let next = 0;
    server = await listen((req, res) => {
      if (req.method === 'POST') res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `lnk_${++next}` }));
      else res.writeHead(req.url === '/links/lnk_2' ? 500 : 204).end();
    });
    const links = new CreatedLinks();
    const client = new ContractClient(server.url, { onExchange: (exchange) => links.observe(exchange) });
    for (let i = 0; i < 3; i++) await client.send({ method: 'POST', path: '/links', apiKey: 'k', json: {} });
    await client.send({ method: 'DELETE', path: '/links/lnk_3', apiKey: 'k' }); // a check deleted its own link
    expect(await links.cleanup(client)).toEqual({ deleted: ['lnk_1'], leftBehind: [{ id: 'lnk_2', why: 'DELETE answered 500' }] });
  });
});
