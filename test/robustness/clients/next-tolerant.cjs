// Tolerant under a next contract: ignores fields it does not know, reads optional and nullable
// fields as maybe missing, takes any status it does not know for a failure it reports, and any
// Error code it does not know for a plain error.
const { check } = require('./api.cjs');
const { flow, sorted } = require('./next-flow.cjs');

(async () => {
  const answers = await flow();
  const { links, errors } = sorted(answers);
  for (const { body } of links) {
    check(typeof body.id === 'string', 'a Link without an id');
    console.log(`${body.title ?? body.destinationUrl} at ${body.shortUrl ?? `(no shortUrl) ${body.slug}`}`);
  }
  for (const { status, body } of errors) console.log(`${status}: ${body?.errorDescription ?? 'an error'}${body?.code === 'LINK_LIMIT_REACHED' ? ' (link limit)' : ''}`);
})();
