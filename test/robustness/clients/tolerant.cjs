// Tolerant: reads every answer the way the contract allows it to come: any RFC 3339 offset,
// clickCount optional, titles of any length, tags in any order, the media type without parameters.
const { check, createLink, newLink, updateLink } = require('./api.cjs');

(async () => {
  const { response, link } = await createLink(newLink);
  check(response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() === 'application/json', 'not JSON');
  check(!Number.isNaN(Date.parse(link.createdAt)), `createdAt '${link.createdAt}' is not a date`);
  const names = new Set(link.tags.map((tag) => tag.name));
  check(newLink.tags.every((tag) => names.has(tag.name)), 'a tag is missing');
  const { link: updated } = await updateLink(link.id, { destinationUrl: 'https://example.com/summer-sale' });
  check(updated.id === link.id && updated.destinationUrl === 'https://example.com/summer-sale', 'not the same link');
  const clicks = updated.clickCount ?? 0;
  const title = updated.title ?? updated.destinationUrl;
  console.log(`${title.length > 60 ? `${title.slice(0, 59)}…` : title}: ${clicks.toFixed()} clicks`);
})();
