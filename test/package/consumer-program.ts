// The TypeScript program a client team would write against the installed package: it imports
// startMock and the API's types, starts a mock, creates, updates and deletes a link with fetch and
// the demo key, stops the mock, and prints what it saw as one JSON line. It is a string, not a
// file of ours, because it imports 'shortlink-mock' by name: only the consumer project resolves it.
export const CONSUMER_PROGRAM = `
import { startMock, type CreateLinkRequest, type Link, type UpdateLinkRequest } from 'shortlink-mock';

const mock = await startMock();
try {
  const headers = { 'x-api-key': mock.apiKeys.demoKey, 'content-type': 'application/json' };
  const create: CreateLinkRequest = { tags: [], destinationUrl: 'https://example.com/first', domain: 'short.test' };
  const created = await fetch(mock.url + '/links', { method: 'POST', headers, body: JSON.stringify(create) });
  const link = (await created.json()) as Link;
  const update: UpdateLinkRequest = { destinationUrl: 'https://example.com/second' };
  const updated = await fetch(mock.url + '/links/' + link.id, { method: 'PUT', headers, body: JSON.stringify(update) });
  const updatedLink = (await updated.json()) as Link;
  const deleted = await fetch(mock.url + '/links/' + link.id, { method: 'DELETE', headers });
  const gone = await fetch(mock.url + '/links/' + link.id, { method: 'DELETE', headers });
  console.log(JSON.stringify({
    demoKey: mock.apiKeys.demoKey,
    created: created.status,
    updated: updated.status,
    destinationUrl: updatedLink.destinationUrl,
    deleted: deleted.status,
    deletedAgain: gone.status,
  }));
} finally {
  await mock.stop();
}
`;

/** What the program prints when the installed package works. */
export const CONSUMER_EXPECTED = {
  demoKey: 'demo-key',
  created: 201,
  updated: 200,
  destinationUrl: 'https://example.com/second',
  deleted: 204,
  deletedAgain: 404,
};
