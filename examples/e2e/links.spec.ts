// A Playwright test of the Playwright recipe: the API through Playwright's own `request` fixture
// (no browser needed), against the mock the config started (MOCK_URL). A test of your app would
// open its pages instead, with the app pointed at MOCK_URL.
import { expect, test } from '@playwright/test';

const mockUrl = (): string => {
  const url = process.env['MOCK_URL'];
  if (!url) throw new Error('MOCK_URL is not set: run with playwright.config.ts or playwright.web-server.config.ts');
  return url;
};

test('create, update and delete a link on the mock', async ({ request }) => {
  const headers = { 'x-api-key': 'demo-key' };
  const created = await request.post(`${mockUrl()}/links`, { headers, data: { destinationUrl: 'https://example.com/pw', domain: 'short.test', tags: [{ name: 'playwright' }] } });
  expect(created.status()).toBe(201);
  const link = (await created.json()) as { id: string; shortUrl: string };
  expect(link.shortUrl).toMatch(/^https:\/\/short\.test\//);
  const updated = await request.put(`${mockUrl()}/links/${link.id}`, { headers, data: { destinationUrl: 'https://example.com/pw-2' } });
  expect(updated.status()).toBe(200);
  expect((await request.delete(`${mockUrl()}/links/${link.id}`, { headers })).status()).toBe(204);
  expect((await request.delete(`${mockUrl()}/links/${link.id}`, { headers })).status()).toBe(404);
});
