// Brittle: sends its tags sorted by name and assumes createLink answers them in that order, as the
// mock happens to. The contract says nothing of their order.
const { check, createLink, newLink } = require('./api.cjs');

(async () => {
  const { link } = await createLink(newLink);
  const names = link.tags.map((tag) => tag.name);
  check(names.join() === [...names].sort().join(), `tags not sorted: ${names.join(', ')}`);
})();
