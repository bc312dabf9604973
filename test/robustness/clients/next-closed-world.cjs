// Brittle under a next contract: a closed world. A create must answer 201 or 400 (a newly
// documented status breaks it), every Error code must be one it knows (a new enum value breaks it),
// and the shortUrl today's contract requires must be there (a field no longer required breaks it).
const { check } = require('./api.cjs');
const { flow, sorted } = require('./next-flow.cjs');

const KNOWN_CODES = ['LINK_LIMIT_REACHED'];

(async () => {
  const answers = await flow();
  check([201, 400].includes(answers.created.status), `a create answered ${answers.created.status}`);
  const { links, errors } = sorted(answers);
  for (const { body } of links) console.log(body.shortUrl.startsWith('https://') ? body.shortUrl : 'not https');
  for (const { body } of errors) if ('code' in body) check(KNOWN_CODES.includes(body.code), `unknown Error code '${body.code}'`);
})().catch((error) => {
  console.error(error.stack);
  process.exit(1);
});
