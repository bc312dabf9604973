// `pact check` on pact files that are odd or hostile but must never crash it (issue 23, item 11):
// header names that are members of every JavaScript object (query names are checked, with a note), bodies nested 20,000 deep,
// a file that is not UTF-8, one over the size limit, one with more interactions than are checked.
// Each is one line on stderr, exit 1, and the --junit file is written with the refusal in it.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runPactCheck } from '../../src/pact/check-command.js';
import { MAX_PACT_BYTES, MAX_PACT_DEPTH, MAX_PACT_INTERACTIONS } from '../../src/pact/pact-input.js';
import { fixture, type PactJson } from './pact-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'slm-pact-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DEEP = 20_000;
const deep = `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`;
/** The pact's JSON text with the string "DEEP" replaced by an array nested 20,000 levels. */
const withDeep = (pact: PactJson): string => JSON.stringify(pact).replace('"DEEP"', deep);

function v3(change: (pact: PactJson) => void): string {
  const pact = fixture('good-v3.json');
  change(pact);
  return JSON.stringify(pact);
}

/** Text of a JSON object whose one member has this name (so that `__proto__` is a member, not the prototype). */
const named = (name: string, value: unknown): string => `{${JSON.stringify(name)}:${JSON.stringify(value)}}`;

const CASES: [string, () => string | Buffer, RegExp][] = [
  ...['__proto__', 'constructor', 'Constructor'].map((name): [string, () => string, RegExp] => [
    `a request header named ${name}`,
    () => v3((pact) => (pact['interactions'][0].request.headers = 'HEADERS')).replace('"HEADERS"', named(name, 'x')),
    /interactions\[0\]\.request\.headers: '(__proto__|constructor)' cannot be checked/,
  ]),
  ['a response header named constructor', () => v3((pact) => (pact['interactions'][1].response.headers = 'HEADERS')).replace('"HEADERS"', named('constructor', 'x')), /interactions\[1\]\.response\.headers: 'constructor'/],
  ['a header name with a line break and ESC in a refusal', () => v3((pact) => (pact['interactions'][0].request.headers = { 'a\nb\u001b[31m': 1 })), /request\.headers\.a\\u000ab\\u001b\[31m must be a string/],
  ['a refusal that quotes a very long name', () => v3((pact) => (pact['interactions'][0].request.headers = { ['n'.repeat(100_000)]: 1 })), /n…$/],
  ['a request body nested 20,000 deep', () => withDeep({ ...fixture('good-v3.json'), interactions: [{ ...fixture('good-v3.json')['interactions'][0], request: { ...fixture('good-v3.json')['interactions'][0].request, body: 'DEEP' } }] }), new RegExp(`nested more than ${MAX_PACT_DEPTH} levels deep`)],
  ['a response body nested 20,000 deep', () => withDeep(JSON.parse(v3((pact) => (pact['interactions'][2].response.body = 'DEEP')))), /nested more than/],
  [
    'a V4 body whose JSON text is nested 20,000 deep',
    () => {
      const pact = fixture('good-v4.json');
      pact['interactions'][0].request.body = { content: deep, contentType: 'application/json', encoded: 'JSON' };
      return JSON.stringify(pact);
    },
    /interactions\[0\]\.request\.body\.content is nested more than/,
  ],
  [
    'a file that is not UTF-8',
    () => {
      const text = v3(() => undefined);
      const at = text.indexOf('a new link');
      return Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(at))]);
    },
    /is not UTF-8 text/,
  ],
  ['a file over the size limit', () => v3((pact) => (pact['interactions'][0].request.body.title = 'x'.repeat(MAX_PACT_BYTES))), new RegExp(`is larger than ${MAX_PACT_BYTES / 1024 / 1024} MiB`)],
  [
    'more interactions than are checked',
    () => v3((pact) => (pact['interactions'] = Array.from({ length: MAX_PACT_INTERACTIONS + 1 }, (_, index) => ({ ...pact['interactions'][index % 7], description: `interaction ${index}` })))),
    new RegExp(`has ${MAX_PACT_INTERACTIONS + 1} interactions; pact check reads at most ${MAX_PACT_INTERACTIONS}`),
  ],
];

describe('a hostile pact file: one line on stderr, exit 1, the JUnit file written', () => {
  it.each(CASES)('%s', async (name, content, reason) => {
    const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, content());
    const junit = join(dir, 'reports', `${name.replace(/\W+/g, '-')}.xml`);
    const out: string[] = [];
    const err: string[] = [];
    const code = await runPactCheck([file, '--junit', junit], {}, { out: (text) => out.push(text), err: (text) => err.push(text) });
    expect({ code, err: err.length, out }).toEqual({ code: 1, err: 1, out: [`JUnit report written to ${junit}`] });
    const line = err[0] ?? '';
    expect(line).toMatch(/^shortlink-mock pact check: /);
    expect(line).not.toContain('\n');
    expect(line).toMatch(reason);
    expect(line.length).toBeLessThan(400);
    expect(existsSync(junit)).toBe(true);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="pact check: [^"]*" tests="1" failures="0" errors="1">/);
    expect(xml).toContain('<error message="');
    expect(xml).toContain('type="PactRefused"');
  });

  it('without --junit: the same one line, no file', async () => {
    const file = join(dir, 'no-junit.json');
    writeFileSync(file, withDeep(JSON.parse(v3((pact) => (pact['interactions'][2].response.body = 'DEEP')))));
    const err: string[] = [];
    const code = await runPactCheck([file], {}, { out: () => undefined, err: (text) => err.push(text) });
    expect(code).toBe(1);
    expect(err).toEqual([expect.stringMatching(/^shortlink-mock pact check: .*nested more than/)]);
  });

  // The engine throws on these names ("schema is invalid"), so it is never handed them; the mock's own
  // check notes each as it would any name the contract does not define (a client may send them, and
  // `pact export` writes what the journal holds: test/pact/check-exported.test.ts).
  it.each([
    ...['__proto__', 'constructor', 'hasOwnProperty', 'toString'].map((name): [string, () => string] => [
      `a query parameter named ${name}`,
      () => v3((pact) => (pact['interactions'][0].request.query = 'QUERY')).replace('"QUERY"', named(name, ['1'])),
    ]),
    ['a V2 query string naming constructor and __proto__', () => v3((pact) => ((pact['metadata'] = { pactSpecification: { version: '2.0.0' } }), (pact['interactions'][0].request.query = 'constructor=1&__proto__=2')))],
  ])('%s: checked, a note, no crash', async (name, content) => {
    const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, content());
    const out: string[] = [];
    const err: string[] = [];
    const code = await runPactCheck([file], {}, { out: (text) => out.push(text), err: (text) => err.push(text) });
    const report = out.join('\n');
    expect({ code, err }, report).toEqual({ code: 0, err: [] });
    const names = name.includes('V2') ? ['constructor', '__proto__'] : [name.split(' ').pop() as string];
    for (const query of names) expect(report).toContain(`note: request query ${query}: is not defined by the contract for createLink  [shortlink-mock]`);
  });

  it('a body with fields named __proto__ and constructor is checked like any other (a finding, not a crash)', async () => {
    const file = join(dir, 'proto-body.json');
    writeFileSync(file, v3(() => undefined).replace('"destinationUrl"', '"__proto__":{"a":1},"constructor":1,"destinationUrl"'));
    const out: string[] = [];
    const code = await runPactCheck([file], {}, { out: (text) => out.push(text), err: () => undefined });
    expect(code).toBe(1);
    expect(out.join('\n')).toContain("request body: has unexpected field '__proto__'");
  });
});

it('--help states the limits', async () => {
  const out: string[] = [];
  await runPactCheck(['--help'], {}, { out: (text) => out.push(text), err: () => undefined });
  expect(out.join('\n')).toContain(`Limits: a pact file of at most 16 MiB, in UTF-8, nested at most ${MAX_PACT_DEPTH} levels, with at most\n${MAX_PACT_INTERACTIONS} interactions`);
});
