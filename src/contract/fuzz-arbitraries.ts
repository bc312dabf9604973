// fast-check arbitraries for requests built from the request schemas of openapi.yaml: valid
// CreateLinkRequest / UpdateLinkRequest bodies, the same bodies broken one way (a field missing, of
// the wrong type, over its length limit, an extra field, a bad URL), random JSON and bytes that are
// not JSON. Whether a body is valid is decided later by the schema itself, not by the generator.
// Ids never name a real link: they carry the run id, or are the suite's own link (OWN_LINK).
import fc from 'fast-check';

export type FuzzBody = { json: unknown } | { raw: string };
export type FuzzRequest =
  | { operationId: 'createLink'; body: FuzzBody }
  | { operationId: 'updateLink'; id: string; body: FuzzBody }
  | { operationId: 'deleteLink'; id: string };

/** Stands for the id of the link the fuzzer created for itself; replaced when sent. */
export const OWN_LINK = '<own-link>';
/** A few fixed tag names: tags cannot be deleted, so fuzzing must not leave new ones every run. */
export const FUZZ_TAG_NAMES = ['contract-fuzz', 'contract-fuzz-2', '  contract-fuzz  ', 'contract fuzz ü'];

type Json = Record<string, unknown>;

/** `gone`: operations a contract FILE removes (issue 38), never sent; at least one of the three must remain. */
export function fuzzRequests(domain: string, runId: string, gone: ReadonlySet<string> = new Set()): fc.Arbitrary<FuzzRequest> {
  const create = createBodies(domain, runId).map((body): FuzzRequest => ({ operationId: 'createLink', body }));
  const linkId = fc.oneof({ weight: 3, arbitrary: fc.constant(OWN_LINK) }, { weight: 1, arbitrary: foreignId(runId) });
  const update = fc.tuple(linkId, updateBodies()).map(([id, body]): FuzzRequest => ({ operationId: 'updateLink', id, body }));
  const remove = foreignId(runId).map((id): FuzzRequest => ({ operationId: 'deleteLink', id }));
  const all = [
    { operationId: 'createLink', weight: 5, arbitrary: create },
    { operationId: 'updateLink', weight: 4, arbitrary: update },
    { operationId: 'deleteLink', weight: 1, arbitrary: remove },
  ];
  return fc.oneof(...all.filter((choice) => !gone.has(choice.operationId)).map(({ weight, arbitrary }) => ({ weight, arbitrary })));
}

/** An id that no real link has: the run id, then odd but printable characters. */
function foreignId(runId: string): fc.Arbitrary<string> {
  return fc.stringMatching(/^[A-Za-z0-9_.~ :é%-]{0,12}$/).map((rest) => `x${runId}${rest}`);
}

const url = fc.oneof(
  { weight: 4, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  { weight: 1, arbitrary: fc.constantFrom('http://localhost:8080/a', 'ftp://files.example.com/x.zip', 'custom+app://host/path', 'https://例え.jp/パス', 'HTTPS://EXAMPLE.COM') },
);
const badUrl = fc.oneof(
  fc.constantFrom('example.com', 'not a url', '//example.com/x', 'http://', 'https:// spaced.example/', 'javascript:alert(1)', 'mailto:a@example.com', '', '/relative/path'),
  fc.string({ maxLength: 20 }),
  fc.integer({ min: 2049 - 20, max: 2100 }).map((length) => `https://example.com/${'a'.repeat(length - 20)}`),
);
const tag = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FUZZ_TAG_NAMES).map((name) => ({ name })) },
  { weight: 1, arbitrary: fc.constantFrom(...FUZZ_TAG_NAMES).map((name) => ({ id: 'tag_contract_fuzz_unknown', name })) },
);
const badTags = fc.oneof(
  fc.constantFrom<unknown>('news', { name: 'x' }, [null], [{}], [{ name: '' }], [{ name: '   ' }], [{ name: 'x', colour: 'red' }], [{ id: 5, name: 'x' }], [{ name: 'n'.repeat(51) }]),
  fc.constant(Array.from({ length: 51 }, (_, index) => ({ name: `contract-fuzz-${index}` }))),
);
const badSlug = fc.oneof(fc.constantFrom('with space', 'slash/slug', 'ümlaut', 'dot.slug', '?q=1', 's'.repeat(51)), fc.string({ maxLength: 8 }));
const wrongType = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }));

function createBodies(domain: string, runId: string): fc.Arbitrary<FuzzBody> {
  const slug = fc.oneof(fc.constant(undefined), fc.constant(''), fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/).map((rest) => `${runId}${rest}`));
  const valid = fc
    .record({
      destinationUrl: url,
      domain: fc.oneof({ weight: 5, arbitrary: fc.constant(domain) }, { weight: 1, arbitrary: fc.constant('no-such-domain.invalid') }),
      tags: fc.array(tag, { maxLength: 3 }),
      slug,
    })
    .map((body) => dropUndefined(body));
  const broken = fc.tuple(valid, mutation(['destinationUrl', 'domain', 'tags', 'slug'], ['title', 'id', 'shortUrl', 'clickCount', 'createdAt'])).map(([body, mutate]) => mutate(body));
  return bodies(valid, broken);
}

function updateBodies(): fc.Arbitrary<FuzzBody> {
  const valid = fc
    .record({ destinationUrl: url, tags: fc.array(tag, { maxLength: 3 }) }, { requiredKeys: [] })
    .filter((body) => Object.keys(body).length > 0)
    .map((body) => dropUndefined(body));
  const broken = fc.tuple(valid, mutation(['destinationUrl', 'tags'], ['slug', 'domain', 'title', 'id'])).map(([body, mutate]) => mutate(body));
  return bodies(valid, broken);
}

function bodies(valid: fc.Arbitrary<Json>, broken: fc.Arbitrary<Json>): fc.Arbitrary<FuzzBody> {
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((json) => ({ json })) },
    { weight: 4, arbitrary: broken.map((json) => ({ json })) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((json) => ({ json })) },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom('{', '{"destinationUrl":', 'null', '', '[]', '{}}'), fc.string({ maxLength: 30 })).map((raw) => ({ raw })) },
  );
}

/** One way to break a valid body: drop a field, give it a wrong type or a bad value, or add a field. */
function mutation(fields: string[], extraFields: string[]): fc.Arbitrary<(body: Json) => Json> {
  const field = fc.constantFrom(...fields);
  return fc.oneof(
    field.map((name) => (body: Json) => dropUndefined({ ...body, [name]: undefined })),
    fc.tuple(field, wrongType).map(([name, value]) => (body: Json) => ({ ...body, [name]: value })),
    fc.tuple(fc.constantFrom(...extraFields), fc.jsonValue({ maxDepth: 1 })).map(([name, value]) => (body: Json) => ({ ...body, [name]: value })),
    badUrl.map((value) => (body: Json) => ({ ...body, destinationUrl: value })),
    badTags.map((value) => (body: Json) => ({ ...body, tags: value })),
    ...(fields.includes('slug') ? [badSlug.map((value) => (body: Json) => ({ ...body, slug: value }))] : []),
  );
}

function dropUndefined(body: Json): Json {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}
