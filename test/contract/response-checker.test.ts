// The suite's own judge, table by table: what it accepts, what it refuses and how it says so; and
// the two outputs that must survive anything a fuzzed body holds: the curl command and JUnit XML.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/contract/check-types.js';
import type { Exchange } from '../../src/contract/client.js';
import { toCurl } from '../../src/contract/exchange-format.js';
import { toJUnit } from '../../src/contract/report.js';
import { ResponseChecker } from '../../src/contract/response-checker.js';
import type { Report } from '../../src/contract/runner.js';

const checker = ResponseChecker.fromFile();
const JSON_TYPE = 'application/json; charset=utf-8';
const link = {
  id: 'lnk_1',
  createdAt: '2026-11-22T09:15:04.512Z',
  destinationUrl: 'https://example.com/a',
  slug: 'a',
  domain: { id: 'dom_1', name: 'short.test' },
  shortUrl: 'https://short.test/a',
  clickCount: 0,
  tags: [{ id: 'tag_1', name: 'x' }],
};

describe('ResponseChecker.checkResponse', () => {
  it.each([
    ['a Link with 201', 'createLink', 201, JSON_TYPE, link, []],
    ['a Link with 200 on update', 'updateLink', 200, 'application/json', link, []],
    ['an Error with 400', 'createLink', 400, JSON_TYPE, { errorDescription: 'bad', code: 'LINK_LIMIT_REACHED' }, []],
    ['204 without a body', 'deleteLink', 204, null, '', []],
  ])('accepts %s', (_what, operation, status, type, body, expected) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    expect(checker.checkResponse(operation, status, type, text)).toEqual(expected);
  });

  it.each([
    ['an undocumented status', 'createLink', 200, JSON_TYPE, link, /^status 200 is not documented for createLink \(documented: 201, 400, 401, 404\)$/],
    ['an HTML error page', 'deleteLink', 404, 'text/html; charset=utf-8', '<h1>Not Found</h1>', /content type is 'text\/html; charset=utf-8', expected application\/json/],
    ['no content type', 'updateLink', 404, null, '{"errorDescription":"x"}', /content type is missing/],
    ['a body that is not JSON', 'createLink', 400, JSON_TYPE, '{"errorDescription":', /is not valid JSON/],
    ['a createdAt that is not a date-time', 'createLink', 201, JSON_TYPE, { ...link, createdAt: 'yesterday' }, /body\.createdAt must match format "date-time" \(got "yesterday"\)/],
    ['a clickCount string', 'updateLink', 200, JSON_TYPE, { ...link, clickCount: '3' }, /body\.clickCount must be integer \(got "3"\)/],
    ['a Link without shortUrl', 'createLink', 201, JSON_TYPE, { ...link, shortUrl: undefined }, /body is missing required field 'shortUrl'/],
    ['a tag without a name', 'createLink', 201, JSON_TYPE, { ...link, tags: [{ id: 'tag_1' }] }, /body\.tags\[0\] is missing required field 'name'/],
    ['an error without errorDescription', 'deleteLink', 401, JSON_TYPE, { error: 'nope' }, /body does not match Error: body is missing required field 'errorDescription'; body has unexpected field 'error'/],
    ['an unknown error code', 'createLink', 400, JSON_TYPE, { errorDescription: 'x', code: 'QUOTA' }, /body\.code must be equal to one of the allowed values/],
    ['a 204 with a body', 'deleteLink', 204, JSON_TYPE, { deleted: true }, /status 204 of deleteLink must have no body, got 16 bytes/],
    ['an unknown operation', 'listLinks', 200, JSON_TYPE, [], /openapi.yaml has no operation 'listLinks'/],
  ])('refuses %s, naming the problem', (_what, operation, status, type, body, expected) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const problems = checker.checkResponse(operation, status, type, text);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(expected);
  });
});

describe('ResponseChecker.requestBodyProblems', () => {
  it.each([
    ['createLink', { destinationUrl: 'https://example.com', domain: 'short.test', tags: [] }, []],
    ['updateLink', { tags: [] }, []],
    ['createLink', { domain: 'short.test', tags: [] }, ["request body is missing required field 'destinationUrl'"]],
    ['updateLink', {}, ['request body must NOT have fewer than 1 properties (got {})']],
    ['updateLink', { slug: 'x' }, ["request body has unexpected field 'slug'"]],
    ['createLink', undefined, ['the request body is required']],
    ['deleteLink', { anything: true }, []],
  ])('%s %j → %j', (operation, body, expected) => {
    expect(checker.requestBodyProblems(operation, body)).toEqual(expected);
  });
});

const exchange = (requestBody: string, bodyText = ''): Exchange => ({
  method: 'POST',
  path: '/links',
  url: 'http://127.0.0.1:9/links',
  requestHeaders: { 'x-api-key': 'secret-key', 'content-type': 'application/json' },
  requestBody,
  status: 500,
  contentType: 'text/plain',
  bodyText,
  ms: 1,
});

describe('toCurl', () => {
  it("quotes any body for a POSIX shell and writes the suite's key as $CONTRACT_API_KEY", () => {
    const body = `{"a":"it's \\"quoted\\" $HOME \`x\` \\n ü"}`;
    const curl = toCurl(exchange(body), new Map([['secret-key', '$CONTRACT_API_KEY']]));
    expect(curl).toContain('-H "x-api-key: $CONTRACT_API_KEY"');
    expect(curl).not.toContain('secret-key');
    const dataArgument = curl.slice(curl.indexOf('--data-raw ') + '--data-raw '.length);
    const echoed = spawnSync('sh', ['-c', `printf %s ${dataArgument}`], { encoding: 'utf8', timeout: 5000 });
    expect(echoed.stdout).toBe(body);
  });
});

describe('toJUnit', () => {
  it('escapes markup and replaces characters XML cannot carry', () => {
    const nasty = `<tag attr="1"> & 'quote' \u0001 \uD800 end`;
    const result: CheckResult = { id: 'x', operationId: 'createLink', expectedStatus: 201, title: `title ${nasty}`, rule: false, ms: 3, outcome: { status: 'failed', reason: `reason ${nasty}`, exchange: exchange(nasty, nasty) } };
    const report = { baseUrl: 'http://h', contract: 'c', operations: checker.operationList(), results: [result], counts: { checked: 1, passed: 0, failed: 1, notChecked: 0 }, ms: 3, secrets: new Map() } as unknown as Report;
    const xml = toJUnit(report);
    expect(xml).not.toMatch(/[\u0001\uD800]/);
    expect(xml).toContain('name="201 title &lt;tag attr=&quot;1&quot;&gt; &amp; &apos;quote&apos; \uFFFD \uFFFD end"');
    expect(xml).toContain('<failure message="reason &lt;tag attr=&quot;1&quot;&gt; &amp; &apos;quote&apos; \uFFFD \uFFFD end" type="ContractViolation">');
    // Between the tags, nothing but escaped text: every < is one of our own elements.
    expect(xml.match(/<(?!\?xml|\/?testsuites?[ >]|\/?testcase[ >/]|\/?failure[ >]|skipped )/g)).toBeNull();
  });
});

// Issue 25 item 4: an answer with an undocumented status has its body judged too, against the
// closest documented answer of its class, so that every problem shows at once.
describe('ResponseChecker: an undocumented status', () => {
  it('judges the body of a 2xx against the documented 2xx, every problem at once', () => {
    const problems = checker.checkResponse('createLink', 200, JSON_TYPE, JSON.stringify({ ...link, shortUrl: undefined, createdAt: 'yesterday' }));
    expect(problems[0]).toBe('status 200 is not documented for createLink (documented: 201, 400, 401, 404)');
    expect(problems[1]).toMatch(/^body does not match Link: .*body\.createdAt must match format "date-time".*missing required field 'shortUrl'|^body does not match Link: .*missing required field 'shortUrl'.*body\.createdAt must match format/);
    expect(problems).toHaveLength(2);
  });

  it('judges a 2xx with a body against a documented 204 as an answer that must have none', () => {
    expect(checker.checkResponse('deleteLink', 200, JSON_TYPE, '{"deleted":true}')).toEqual([
      'status 200 is not documented for deleteLink (documented: 204, 401, 404)',
      'status 200 of deleteLink, judged as its documented 204, must have no body, got 16 bytes',
    ]);
  });

  it('judges a 4xx against the nearest documented 4xx, content type included', () => {
    expect(checker.checkResponse('createLink', 403, JSON_TYPE, '{"error":"no"}')).toEqual([
      'status 403 is not documented for createLink (documented: 201, 400, 401, 404)',
      "body does not match Error: body is missing required field 'errorDescription'; body has unexpected field 'error'",
    ]);
    expect(checker.checkResponse('deleteLink', 402, 'text/html', '<p>pay</p>')).toEqual([
      'status 402 is not documented for deleteLink (documented: 204, 401, 404)',
      "content type is 'text/html', expected application/json for deleteLink 401",
    ]);
  });

  it('reports only the status for a class with no documented status (nothing to judge the body by)', () => {
    expect(checker.checkResponse('createLink', 500, 'text/plain', 'boom')).toEqual(['status 500 is not documented for createLink (documented: 201, 400, 401, 404)']);
  });

  it("among equally near documented statuses takes the lower; a documented range ('4XX') or 'default' documents the status, as OpenAPI says", () => {
    const errorBody = { description: 'e', content: { 'application/json': { schema: { type: 'object', required: ['errorDescription'], properties: { errorDescription: { type: 'string' } } } } } };
    const own = new ResponseChecker({
      paths: {
        '/x': { get: { operationId: 'getX', responses: { '200': { description: 'none' }, '202': errorBody, '4XX': errorBody } } },
        '/y': { get: { operationId: 'getY', responses: { '200': { description: 'none' }, default: errorBody } } },
      },
    } as unknown as ConstructorParameters<typeof ResponseChecker>[0]);
    expect(own.operation('getX').statuses).toEqual([200, 202]);
    expect(own.checkResponse('getX', 201, JSON_TYPE, '{}')).toEqual(['status 201 is not documented for getX (documented: 200, 202)', 'status 201 of getX, judged as its documented 200, must have no body, got 2 bytes']);
    expect(own.checkResponse('getX', 418, JSON_TYPE, '{"errorDescription":"teapot"}')).toEqual([]);
    expect(own.checkResponse('getX', 503, JSON_TYPE, '{}')).toEqual(['status 503 is not documented for getX (documented: 200, 202)']);
    expect(own.checkResponse('getY', 503, JSON_TYPE, '{}')).toEqual(["body does not match its schema: body is missing required field 'errorDescription'"]);
    expect(own.checkResponse('getY', 201, JSON_TYPE, '{}')).toEqual(["body does not match its schema: body is missing required field 'errorDescription'"]);
  });
});
