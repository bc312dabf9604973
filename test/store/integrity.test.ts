// A db whose references do not hold is refused at start like a corrupt file, in one line naming
// the db, what is wrong and the way out; the seeded data and the data the API builds pass.
import { describe, expect, it } from 'vitest';
import { buildSeed } from '../../fixtures/seed.js';
import type { LinkRecord, MockData, TagRecord } from '../../src/core/model.js';
import { memoryStore } from '../../src/store/file/data-store.js';
import { DataFileError, openData } from '../../src/store/file/open-data.js';
import { createTestApp, DEMO, fixtures, OTHER, TEST_SEED } from '../helpers/test-app.js';

const seed = (): MockData => buildSeed(TEST_SEED, fixtures);

async function open(data: MockData) {
  const store = memoryStore();
  await store.write([{ op: 'replace', data }]);
  return openData(store, async () => seed(), false);
}

const firstLink = (data: MockData, apiKey = DEMO): LinkRecord => {
  const account = data.accounts.find((candidate) => candidate.apiKey === apiKey);
  const link = [...data.links.values()].find((candidate) => candidate.accountId === account?.id && candidate.tagIds.length > 0);
  if (!link) throw new Error(`no tagged link of ${apiKey} in the seed`);
  return link;
};
const accountOf = (data: MockData, apiKey: string) => data.accounts.find((account) => account.apiKey === apiKey) as MockData['accounts'][number];
const tagOf = (data: MockData, apiKey: string): TagRecord => Object.values(data.tags).find((tag) => tag.accountId === accountOf(data, apiKey).id) as TagRecord;

const broken: [string, (data: MockData) => void, RegExp][] = [
  ['a link naming a tag that is not there', (data) => void (firstLink(data).tagIds = ['tag_gone']), /link 'lnk_\w+' names unknown tag 'tag_gone'/],
  ['a link of an unknown account', (data) => void (firstLink(data).accountId = 'acc_gone'), /names unknown account 'acc_gone'/],
  ['a link on an unknown domain', (data) => void (firstLink(data).domainId = 'dom_gone'), /names unknown domain 'dom_gone'/],
  [
    "a link on another account's custom domain",
    (data) => void (firstLink(data, OTHER).domainId = (accountOf(data, DEMO).domains[0] as { id: string }).id),
    /is on domain 'dom_\w+' of another account/,
  ],
  ["a link naming another account's tag", (data) => void (firstLink(data).tagIds = [tagOf(data, OTHER).id]), /names tag 'tag_\w+' of another account/],
  ['a tag of an unknown account', (data) => void (tagOf(data, DEMO).accountId = 'acc_gone'), /tag 'tag_\w+' names unknown account 'acc_gone'/],
  [
    'a link stored under another id',
    (data) => {
      const link = firstLink(data);
      data.links.set('lnk_elsewhere', link);
    },
    /link 'lnk_elsewhere' is stored under another id/,
  ],
  ['an account twice', (data) => void data.accounts.push({ ...accountOf(data, DEMO), apiKey: 'copy' }), /account 'acc_\w+' appears twice/],
  // What a reset applied in memory but not on disk left after a crash (issue 23, item 2).
  [
    'two links with one slug in one domain',
    (data) => {
      const link = firstLink(data);
      data.links.set('lnk_sameslug', { ...link, id: 'lnk_sameslug' });
    },
    /link 'lnk_sameslug' has slug '[\w-]+' of link 'lnk_\w+' in domain 'dom_\w+'/,
  ],
  [
    'two tags with one name in one account',
    (data) => {
      const tag = tagOf(data, DEMO);
      data.tags['tag_samename'] = { ...tag, id: 'tag_samename' };
    },
    /tag 'tag_samename' has the name '.+' of tag 'tag_\w+' in account 'acc_\w+'/,
  ],
];

describe('the integrity check at start', () => {
  it('passes the seeded data, and the data after the API made an account for a new key and links with new tags', async () => {
    await expect(open(seed())).resolves.toMatchObject({ seeded: false });
    const app = await createTestApp({ acceptAnyKey: true });
    for (const key of [DEMO, 'a-key-never-seen']) {
      const created = await app.request.post('/links').set('x-api-key', key).send({ destinationUrl: 'https://example.com/x', domain: 'short.test', tags: [{ name: 'fresh' }] });
      expect(created.status).toBe(201);
    }
    await expect(open(await app.data())).resolves.toMatchObject({ seeded: false });
  });

  it.each(broken)('refuses %s: one line naming the db, the problem and --reset', async (_what, breakIt, problem) => {
    const data = seed();
    breakIt(data);
    const refusal = await open(data).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(DataFileError);
    const message = (refusal as Error).message;
    expect(message).toMatch(/^db :memory: fails its integrity check \(/);
    expect(message).toMatch(problem);
    expect(message).toMatch(/; fix the file or start with --reset to re-seed it$/);
    expect(message).not.toContain('\n');
  });

  // The links' shape is checked in the integrity check's walk of them (one walk of a million links,
  // issue 40), but still reported as data that is not ours, before any reference is looked at.
  it.each([
    ['a link record without its fields', (data: MockData) => void data.links.set('lnk_bare', { id: 'lnk_bare' } as LinkRecord)],
    ['a link that is not an object', (data: MockData) => void data.links.set('lnk_text', 'a link' as unknown as LinkRecord)],
  ])('refuses %s as not shortlink-mock data, naming the link', async (_what, breakIt) => {
    const data = seed();
    breakIt(data);
    const id = [...data.links.keys()].at(-1) as string;
    await expect(open(data)).rejects.toThrow(new DataFileError(`db :memory: is not shortlink-mock data (link '${id}' is not a link); start with --reset to re-seed it`));
  });
});
