// 200 concurrent creates of one slug against the real CLI over real HTTP (200 sockets): exactly one
// 201, 199 × 400 "already taken", and after a restart exactly one link with that slug. A reliability
// test of the issue that runs in ~2 s, so it lives in npm test.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ResponseChecker } from '../../src/contract/response-checker.js';
import { startCli, type CliProcess } from '../helpers/cli-process.js';

const CONCURRENT = 200;
const checker = ResponseChecker.fromFile();
let dir: string;
const running: CliProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slm-race-'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((cli) => cli.stop('SIGKILL')));
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

function post(agent: http.Agent, url: string, body: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/links`, { method: 'POST', agent, headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? null, text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function linksWithSlug(url: string, slug: string): Promise<string[]> {
  const res = await fetch(`${url}/__admin/links?account=demo-key`);
  const { links } = (await res.json()) as { links: { id: string; slug: string }[] };
  return links.filter((link) => link.slug === slug).map((link) => link.id);
}

describe('200 concurrent creates of one slug', () => {
  it('answer exactly one 201 and 199 × 400 "already taken", and one link survives a restart', async () => {
    const cli = await startCli(['--db', 'db.json', '--quiet'], dir);
    running.push(cli);
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENT });
    const body = { destinationUrl: 'https://example.com/race', domain: 'short.test', tags: [{ name: 'race' }], slug: 'the-one-slug' };
    let answers: Answer[];
    try {
      answers = await Promise.all(Array.from({ length: CONCURRENT }, () => post(agent, cli.url, body)));
    } finally {
      agent.destroy();
    }
    for (const answer of answers) expect(checker.checkResponse('createLink', answer.status, answer.contentType, answer.text)).toEqual([]);
    const created = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 400);
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(CONCURRENT - 1);
    for (const answer of refused) expect(JSON.parse(answer.text)).toEqual({ errorDescription: "slug 'the-one-slug' is already taken in domain 'short.test'" });
    const { id } = JSON.parse(created[0]?.text ?? '{}') as { id: string };
    expect(await linksWithSlug(cli.url, 'the-one-slug')).toEqual([id]);

    expect(await cli.stop('SIGTERM')).toBe(0);
    running.splice(0);
    const again = await startCli(['--db', 'db.json', '--quiet'], dir);
    running.push(again);
    expect(await linksWithSlug(again.url, 'the-one-slug')).toEqual([id]);
  });
});
