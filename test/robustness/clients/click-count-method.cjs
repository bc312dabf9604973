// Brittle: formats the updated link's clickCount with a method call, though the contract marks
// clickCount optional: absent, `link.clickCount.toFixed()` throws a TypeError (exit 1).
const { createLink, newLink, updateLink } = require('./api.cjs');

(async () => {
  const { link } = await createLink(newLink);
  const { link: updated } = await updateLink(link.id, { destinationUrl: 'https://example.com/summer-sale' });
  console.log(`${updated.slug}: ${updated.clickCount.toFixed()} clicks`);
})();
