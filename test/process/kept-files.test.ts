// The contract and fixtures a process keeps between starts (src/process/kept-files.ts): the same
// objects while a file's text is the same, new ones once it changes, a bounded number of texts kept,
// and a fixtures file that cannot be loaded refused as before.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTRACT_FILE, DEFAULT_FIXTURES_FILE } from '../../src/contract/package-files.js';
import { keptContract, keptFixtures, MAX_KEPT_TEXTS } from '../../src/process/kept-files.js';
import { StartupError } from '../../src/process/startup-error.js';
import { createTestApp, DEMO } from '../helpers/test-app.js';

const dir = mkdtempSync(join(tmpdir(), 'slm-kept-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const defaults = readFileSync(DEFAULT_FIXTURES_FILE, 'utf8');

describe('keptContract', () => {
  it('gives the same contract and rules on every start of the process', () => {
    const first = keptContract();
    expect(keptContract()).toBe(first);
    expect(first.rules.operationIds()).toContain('createLink');
  });

  it('reads an edited contract file as new: the next start serves the edit (issue 37 B6)', async () => {
    // A copy at one path, edited between two starts: the tags' maxItems 50 becomes 3.
    const file = join(dir, 'openapi.yaml');
    const text = readFileSync(CONTRACT_FILE, 'utf8');
    writeFileSync(file, text);
    const first = keptContract(file);
    const edited = text.replaceAll('maxItems: 50', 'maxItems: 3');
    expect(edited).not.toBe(text);
    writeFileSync(file, edited);
    const second = keptContract(file);
    expect(second).not.toBe(first);
    const body = { destinationUrl: 'https://example.com/x', domain: 'short.test', tags: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] };
    const before = await createTestApp({ contract: first.contract, contractRules: first.rules });
    await before.request.post('/links').set('x-api-key', DEMO).send(body).expect(201);
    const after = await createTestApp({ contract: second.contract, contractRules: second.rules });
    const res = await after.request.post('/links').set('x-api-key', DEMO).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errorDescription: "request body: 'tags' must NOT have more than 3 items" });
  });
});

describe('keptFixtures', () => {
  it('gives the same object while the text is the same, and a new one once the file changes', () => {
    const file = join(dir, 'fixtures.json');
    writeFileSync(file, defaults);
    const first = keptFixtures(file);
    expect(keptFixtures(file)).toBe(first);
    const changed = JSON.parse(defaults) as Record<string, unknown>;
    writeFileSync(file, `${JSON.stringify(changed, null, 1)}\n`);
    const second = keptFixtures(file);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
  });

  it('keeps the latest texts only: an older one is read again', () => {
    const file = join(dir, 'many.json');
    writeFileSync(file, defaults);
    const oldest = keptFixtures(file);
    for (let n = 1; n <= MAX_KEPT_TEXTS; n += 1) {
      writeFileSync(file, `${defaults}${' '.repeat(n)}`);
      keptFixtures(file);
    }
    writeFileSync(file, defaults);
    expect(keptFixtures(file)).not.toBe(oldest);
  });

  it('refuses a missing or broken file with the start-up error it always gave', () => {
    const missing = join(dir, 'missing.json');
    expect(() => keptFixtures(missing)).toThrow(new StartupError(`cannot load fixtures ${missing}: ENOENT: no such file or directory, open '${missing}'`));
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ not json');
    expect(() => keptFixtures(broken)).toThrow(/^cannot load fixtures .*broken\.json: .*JSON/);
    expect(() => keptFixtures(broken)).toThrow(StartupError);
  });
});
