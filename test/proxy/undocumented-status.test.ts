// Issue 25 item 4: an upstream answer with a status the contract does not document (200 for a
// create) has its body judged too, against the closest documented answer of its class, so that every
// problem shows at once, the same inline and in the judging thread. With --proxy-strict the client
// gets a 502, but the journal and the drift report keep the upstream's answer as the evidence.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { AnswerJudge } from '../../src/proxy/answer-judge.js';
import { MAX_UPSTREAM_BODY } from '../../src/proxy/forward.js';
import { contract } from '../helpers/test-app.js';

/** A created link as the upstream sends it: with 200 instead of 201, no shortUrl, a createdAt that is no date-time. */
const BROKEN_LINK = { id: 'lnk_1', createdAt: 'yesterday', destinationUrl: 'https://e.test/', slug: 'abc', domain: { id: 'dom_1', name: 'short.test' }, clickCount: 0, tags: [] };
const STATUS_RULE = 'status 200 is not documented for createLink (documented: 201, 400, 401, 404)';
const BODY_RULES = [/^body does not match Link: body\.createdAt must match format "date-time"$/, /^body does not match Link: body is missing required field 'shortUrl'$/];

let upstream: Server;
let upstreamUrl: string;

beforeAll(async () => {
  upstream = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(BROKEN_LINK));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => upstream.close(resolve)));

function expectEveryProblem(rules: readonly string[]): void {
  expect(rules[0]).toBe(STATUS_RULE);
  for (const rule of BODY_RULES) expect(rules.some((each) => rule.test(each)), rules.join('\n')).toBe(true);
}

const create = (base: string): Promise<Response> =>
  fetch(`${base}/links`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'demo-key' }, body: JSON.stringify({ destinationUrl: 'https://e.test/', domain: 'short.test', tags: [] }) });

describe('the judge', () => {
  const inline = new AnswerJudge(contract.document, { inlineMaxBytes: MAX_UPSTREAM_BODY });
  const threaded = new AnswerJudge(contract.document, { inlineMaxBytes: 0, threads: 1 });
  afterAll(() => threaded.close());
  const answer = { status: 200, contentType: 'application/json', contentEncoding: null, body: Buffer.from(JSON.stringify(BROKEN_LINK)) };

  it('reports the status and every problem of the body at once, inline and in the judging thread alike', async () => {
    const here = inline.inline('createLink', answer);
    expectEveryProblem(here?.violations.map((violation) => violation.rule) ?? []);
    expect(await threaded.offThread('createLink', answer)).toEqual(here);
  });
});

describe('through the proxy', () => {
  let proxy: RunningMock;
  let strict: RunningMock;
  beforeAll(async () => {
    proxy = await startMock({ proxy: upstreamUrl, journalSize: 10 });
    strict = await startMock({ proxy: upstreamUrl, proxyStrict: true, journalSize: 10 });
  });
  afterAll(async () => {
    await proxy?.stop();
    await strict?.stop();
  });

  it('flags the undocumented status and the broken body in one exchange', async () => {
    const res = await create(proxy.url);
    expect(res.status).toBe(200);
    const [entry] = await proxy.journal({ limit: 1 });
    expectEveryProblem(entry?.violations?.map((violation) => violation.rule) ?? []);
    expect(res.headers.get('x-contract-violations')).toBe(String(entry?.violations?.length));
  });

  it("--proxy-strict: the client gets a 502, the journal and the drift example keep the upstream's status and body", async () => {
    const res = await create(strict.url);
    expect(res.status).toBe(502);
    const [entry] = await strict.journal({ limit: 1 });
    expect(entry).toMatchObject({ status: 502, verdict: 'contract-violation', upstream: { status: 200, body: BROKEN_LINK } });
    expect(entry?.responseBody).toMatchObject({ errorDescription: expect.stringMatching(/--proxy-strict/) });
    const report = await strict.violations();
    expect(report.groups.map((group) => [group.operationId, group.status])).toEqual([['createLink', 200]]);
    const examples = report.groups[0]?.violations.map((violation) => violation.example) ?? [];
    expect(examples.length).toBeGreaterThan(1);
    for (const example of examples) expect(example).toMatchObject({ status: 200, responseBody: BROKEN_LINK });
  });
});
