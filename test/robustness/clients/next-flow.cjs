// What the next-contract clients (next-*.cjs, test/robustness/next-contract.test.ts) do against the
// mock: create a link, update it when created, and send a create the contract refuses (an Error
// answer). Each client then reads the answers its own way; a client that crashes exits non-zero.
const { newLink, send } = require('./api.cjs');

async function answer(method, path, body) {
  const response = await send(method, path, body);
  return { status: response.status, body: JSON.parse((await response.text()) || 'null') };
}

/** The answers of one pass: `created` (201 or not), `updated` (only after a 201), `refused` (a 400). */
async function flow() {
  const created = await answer('POST', '/links', newLink);
  const updated = created.status === 201 ? await answer('PUT', `/links/${encodeURIComponent(created.body.id)}`, { destinationUrl: 'https://example.com/summer-sale' }) : undefined;
  const refused = await answer('POST', '/links', { destinationUrl: 'not a url' });
  return { created, updated, refused };
}

/** The Link answers of a pass, and its Error answers (every answer that is not a 2xx). */
function sorted({ created, updated, refused }) {
  const answers = [created, updated, refused].filter(Boolean);
  return { links: answers.filter((one) => one.status < 300), errors: answers.filter((one) => one.status >= 300) };
}

module.exports = { flow, sorted };
