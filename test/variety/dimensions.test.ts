// The variety engine on its own: the dimensions come from openapi.yaml, and every dimension, alone
// and mixed, under any seed, gives answers the contract allows for every operation and status.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { NO_OPERATION_ANSWERS } from '../../src/contract/no-operation.js';
import { ResponseChecker } from '../../src/contract/response-checker.js';
import { CONTRACT_FILE } from '../../src/contract/package-root.js';
import { buildDimensions } from '../../src/variety/dimensions.js';
import { newIdOfShape } from '../../src/variety/id-shapes.js';
import { planOf } from '../../src/variety/plan.js';
import { varyBody } from '../../src/variety/vary-body.js';

const document = parse(readFileSync(CONTRACT_FILE, 'utf8')) as unknown;
const checker = new ResponseChecker(document as ConstructorParameters<typeof ResponseChecker>[0]);
const catalogue = buildDimensions(document);
const names = catalogue.map((dimension) => dimension.name);

type Link = { id: string; createdAt: string; slug: string; destinationUrl: string; shortUrl: string; domain: unknown; tags: { name: string }[] };
const example = (path: string, method: string, status: string): Link => (document as { paths: Record<string, Record<string, { responses: Record<string, { content: { 'application/json': { example: Link } } }> }>> }).paths[path]![method]!.responses[status]!.content['application/json'].example;
// The contract's own examples: one without a title (create), one with (update); three tags to permute.
const link = { ...example('/links', 'post', '201'), tags: [{ id: 'tag_1', name: 'marketing' }, { id: 'tag_2', name: 'q3' }, { id: 'tag_3', name: 'zeta' }] };
const titled = example('/links/{id}', 'put', '200');
const samples = (status: number): unknown[] => {
  if (status === 204) return [];
  if (status < 300) return [link, titled, { ...link, createdAt: '2026-01-01T00:00:00.000Z', tags: [] }];
  return status === 400 ? [{ errorDescription: 'slug taken' }, { errorDescription: 'limit', code: 'LINK_LIMIT_REACHED' }] : [{ errorDescription: 'x' }];
};

// The operations' answers and those that are no operation (a 404 for an unknown path, a 405).
const answered = [...checker.operationList(), ...NO_OPERATION_ANSWERS.map(({ operationId, status }) => ({ operationId, statuses: [status] }))];
const answers = answered.flatMap(({ operationId, statuses }) => statuses.flatMap((status) => samples(status).map((body) => ({ operationId, status, body }))));

describe('the dimensions of variety', () => {
  it('are built from openapi.yaml, named <operationId>.<field or part>:<variant>', () => {
    for (const name of names) expect(name).toMatch(/^(createLink|updateLink|deleteLink|unknownPath|wrongMethod)\.[A-Za-z-]+:[a-z0-9-]+$/);
    expect(names).toEqual(
      expect.arrayContaining([
        'createLink.clickCount:absent',
        'updateLink.createdAt:offset',
        'createLink.createdAt:fraction-digits',
        'createLink.title:absent',
        'createLink.title:longest',
        'createLink.title:non-ascii',
        'createLink.title:empty',
        'createLink.clickCount:minimum',
        'createLink.clickCount:max-safe',
        'createLink.tags:permuted',
        'createLink.errorDescription:longest',
        'deleteLink.errorDescription:non-ascii',
        'createLink.id:longest',
        'createLink.id:uuid',
        'createLink.content-type:no-charset',
        'updateLink.framing:chunked',
        'deleteLink.encoding:gzip',
        'unknownPath.errorDescription:longest',
        'wrongMethod.content-type:no-charset',
      ]),
    );
    // The state is the truth: no variant changes a stored fact's value, and errorDescription is required.
    expect(names.filter((name) => /\.(slug|destinationUrl|domain|shortUrl|code):|errorDescription:(absent|empty)|updateLink\.id:/.test(name))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('each dimension alone changes some answer, and the answer keeps the contract', () => {
    for (const dimension of catalogue.filter((each) => each.kind === 'body')) {
      const plan = planOf(catalogue, { seed: 7, only: [dimension.name] }).get(dimension.operationId);
      const changed = answers.filter((answer) => answer.operationId === dimension.operationId).map((answer) => ({ answer, varied: varyBody(plan!, answer.status, answer.body) }));
      expect(changed.some(({ varied }) => varied.used.includes(dimension.name)), dimension.name).toBe(true);
      for (const { answer, varied } of changed) expect(checker.checkResponse(answer.operationId, answer.status, 'application/json', JSON.stringify(varied.body)), dimension.name).toEqual([]);
    }
  });

  it("a created link's id in each shape the plan may give keeps the contract", () => {
    const shapes = catalogue.filter((dimension) => dimension.kind === 'id');
    expect(shapes.map((dimension) => dimension.name)).toEqual(['createLink.id:longest', 'createLink.id:uuid']);
    for (const dimension of shapes) {
      const { shape, maxLength } = planOf(catalogue, { seed: 1, only: [dimension.name] }).get('createLink')!.idShape!;
      const id = newIdOfShape(shape, maxLength);
      expect(id.length).toBe(dimension.variant === 'longest' ? 64 : 36);
      expect(checker.checkResponse('createLink', 201, 'application/json', JSON.stringify({ ...link, id }))).toEqual([]);
    }
  });

  it('any mix of dimensions under any seed keeps the contract for every operation and status, and the stored facts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.option(fc.subarray(names)), fc.subarray(names), (seed, only, except) => {
        const plan = planOf(catalogue, { seed, only, except });
        for (const { operationId, status, body } of answers) {
          const operation = plan.get(operationId);
          if (!operation) continue;
          const varied = varyBody(operation, status, body);
          expect(checker.checkResponse(operationId, status, 'application/json', JSON.stringify(varied.body))).toEqual([]);
          for (const used of varied.used) expect(except).not.toContain(used);
          if (status < 300) expectSameFacts(body as Link, varied.body as Link);
          // An error's code says which refusal it is (D5): kept where it is, never added.
          else expect((varied.body as { code?: string }).code).toBe((body as { code?: string }).code);
        }
      }),
      { numRuns: 300, seed: 26 },
    );
  });

  it('a seed gives the same answer every time', () => {
    const once = planOf(catalogue, { seed: 42 }).get('createLink');
    const again = planOf(catalogue, { seed: 42 }).get('createLink');
    expect(varyBody(again!, 201, link)).toEqual(varyBody(once!, 201, link));
  });
});

function expectSameFacts(before: Link, after: Link): void {
  expect(after.id).toBe(before.id);
  expect(Date.parse(after.createdAt)).toBe(Date.parse(before.createdAt));
  expect([after.slug, after.destinationUrl, after.shortUrl, after.domain]).toEqual([before.slug, before.destinationUrl, before.shortUrl, before.domain]);
  expect([...after.tags].sort((a, b) => a.name.localeCompare(b.name))).toEqual([...before.tags].sort((a, b) => a.name.localeCompare(b.name)));
}
