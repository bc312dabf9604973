// Brittle: the link card shows the updated link's title cut to 60 characters, and asserts that
// nothing was cut. The contract allows titles up to 500 characters.
const { check, createLink, newLink, updateLink } = require('./api.cjs');

(async () => {
  const { link } = await createLink(newLink);
  const { link: updated } = await updateLink(link.id, { tags: [{ name: 'marketing' }] });
  const title = updated.title ?? updated.destinationUrl;
  const card = title.slice(0, 60);
  check(card === title, `title cut on the card: '${card}…' (${title.length} characters)`);
})();
