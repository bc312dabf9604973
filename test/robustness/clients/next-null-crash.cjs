// Brittle under a next contract: takes a field that is there for a string, so a title sent as null
// (a field the next contract makes nullable) crashes it with a TypeError.
const { flow, sorted } = require('./next-flow.cjs');

(async () => {
  const { links } = sorted(await flow());
  for (const { body } of links) if ('title' in body) console.log(body.title.trim());
})().catch((error) => {
  console.error(error.stack);
  process.exit(1);
});
