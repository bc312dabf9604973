// Brittle: parses createLink's `createdAt` with a regex that only knows UTC written as `Z`. RFC 3339
// also allows a numeric offset (`+02:00`) for the same instant.
const { check, createLink, newLink } = require('./api.cjs');

(async () => {
  const { link } = await createLink(newLink);
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?Z$/.exec(link.createdAt);
  check(match !== null, `createdAt '${link.createdAt}' is not a date this client can read`);
  console.log('created at', new Date(Date.UTC(+match[1], +match[2] - 1, +match[3], +match[4], +match[5], +match[6])).toISOString());
})();
