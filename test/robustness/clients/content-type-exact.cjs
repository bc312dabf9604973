// Brittle: compares createLink's Content-Type as an exact string. `application/json` without the
// charset parameter is the same media type, and the contract allows it.
const { check, createLink, newLink } = require('./api.cjs');

(async () => {
  const { response } = await createLink(newLink);
  const type = response.headers.get('content-type');
  check(type === 'application/json; charset=utf-8', `unexpected Content-Type '${type}'`);
})();
