// Brittle under a next contract: refuses any field it does not know (a strict decoder, like a
// generated model with additionalProperties false), so a new optional field breaks it.
const { check } = require('./api.cjs');
const { flow, sorted } = require('./next-flow.cjs');

const LINK_FIELDS = new Set(['id', 'createdAt', 'destinationUrl', 'title', 'slug', 'domain', 'shortUrl', 'clickCount', 'tags']);
const ERROR_FIELDS = new Set(['errorDescription', 'code']);

(async () => {
  const { links, errors } = sorted(await flow());
  for (const { body } of links) for (const field of Object.keys(body)) check(LINK_FIELDS.has(field), `unknown Link field '${field}'`);
  for (const { body } of errors) for (const field of Object.keys(body)) check(ERROR_FIELDS.has(field), `unknown Error field '${field}'`);
})();
