// npm run bench:evolve: evolve's judgement of recorded exchanges against the next contract, in
// exchanges per second, next to the validator's own rate on the same exchanges in the same run
// (target: evolve ≥ 0.5× plain validation). BENCH_EVOLVE_EXCHANGES (default 10,000) exchanges of
// the fixture's kinds (creates with and without slugs and tags, updates, deletes, scenario-shaped
// errors), judged against docs/examples/evolve/next.yaml, or BENCH_EVOLVE_NEXT: where an exchange
// keeps NEXT, evolve validates it once, as plain validation does; where it breaks or changes, evolve
// asks --from too (to report only what is new), so a NEXT that touches every exchange costs about
// twice. BENCH_EVOLVE_ROUNDS (5) rounds alternating the two sides (STYLE.md item 16), each side's
// median reported. Uses dist/ (npm run build first).
import { join } from 'node:path';
import { ROOT } from './lib/processes.mjs';

const { readContractFile } = await import(join(ROOT, 'dist/src/commands/evolve/contract-file.js'));
const { ContractView } = await import(join(ROOT, 'dist/src/commands/evolve/contract-view.js'));
const { Judge } = await import(join(ROOT, 'dist/src/commands/evolve/judge.js'));
const { Consumers } = await import(join(ROOT, 'dist/src/commands/evolve/consumers.js'));
const { CONTRACT_FILE } = await import(join(ROOT, 'dist/src/contract/package-files.js'));

const COUNT = Number(process.env.BENCH_EVOLVE_EXCHANGES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_EVOLVE_ROUNDS ?? 5);

const link = (index, slug) => ({ id: `lnk_${String(index).padStart(16, '0')}`, createdAt: '2026-11-28T10:00:00.000Z', destinationUrl: 'https://example.com/a', slug, domain: { id: 'dom_1', name: 'short.test' }, shortUrl: `https://short.test/${slug}`, clickCount: 0, tags: [{ id: 'tag_1', name: 'marketing' }] });
const headers = { 'x-api-key': 'key-****' };
const KINDS = [
  (index) => ({ method: 'POST', path: '/links', requestBody: { destinationUrl: 'https://example.com/a', domain: 'short.test', tags: [] }, status: 201, responseBody: link(index, `s${index}`) }),
  (index) => ({ method: 'POST', path: '/links', requestBody: { destinationUrl: 'https://example.com/a', domain: 'short.test', slug: `spring-sale-${index}`, tags: [{ name: 'marketing' }, { name: 'q3' }] }, status: 201, responseBody: link(index, `spring-sale-${index}`) }),
  (index) => ({ method: 'PUT', path: `/links/lnk_${index}`, requestBody: { tags: [{ name: 'marketing' }] }, status: 200, responseBody: link(index, `s${index}`) }),
  (index) => ({ method: 'DELETE', path: `/links/lnk_${index}`, requestBody: undefined, status: 204, responseBody: undefined }),
  (index) => ({ method: 'POST', path: '/links', requestBody: { destinationUrl: 'https://example.com/qa', domain: 'short.test', tags: [] }, status: 400, responseBody: { errorDescription: 'limit', code: 'LINK_LIMIT_REACHED' } }),
];
// One name per consumer, as the journal's input gives them (its account's name: one string per account).
const CONSUMERS = ['consumer 0', 'consumer 1', 'consumer 2'];
const exchanges = Array.from({ length: COUNT }, (_, index) => ({ consumer: CONSUMERS[index % 3], headers, scenario: null, ...KINDS[index % KINDS.length](index) }));

const from = new ContractView(readContractFile(CONTRACT_FILE));
const next = new ContractView(readContractFile(process.env.BENCH_EVOLVE_NEXT ?? join(ROOT, 'docs/examples/evolve/next.yaml')));

/** The validator alone: NEXT's request and answer bodies validated, nothing compared. */
function plain() {
  for (const exchange of exchanges) {
    const match = next.table.match(exchange.method, exchange.path);
    if (match.kind !== 'operation') continue;
    if (exchange.requestBody !== undefined) next.checker.requestBodyErrors(match.operationId, exchange.requestBody);
    if (exchange.responseBody !== undefined && next.checker.documentsBody(match.operationId, exchange.status)) next.checker.responseBodyErrors(match.operationId, exchange.status, exchange.responseBody);
  }
}

/** evolve's judgement, as the command runs it (a new Judge per run: its probe cache starts empty). */
function judged() {
  const judge = new Judge(from, next);
  const consumers = new Consumers();
  for (const exchange of exchanges) {
    const { operationId, findings } = judge.judged(exchange);
    consumers.add(exchange, operationId, findings);
  }
  consumers.verdicts();
}

const rate = (run) => {
  const started = process.hrtime.bigint();
  run();
  return COUNT / (Number(process.hrtime.bigint() - started) / 1e9);
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

plain();
judged(); // warm-up: compiled validators, JIT
const rates = { plain: [], evolve: [] };
for (let round = 0; round < ROUNDS; round += 1) {
  // Alternate which side goes first, so neither always runs on a warmer or colder machine.
  const order = round % 2 === 0 ? ['plain', 'evolve'] : ['evolve', 'plain'];
  for (const side of order) rates[side].push(rate(side === 'plain' ? plain : judged));
}
const [validator, evolve] = [median(rates.plain), median(rates.evolve)];
console.log(`evolve: ${COUNT} exchanges, ${ROUNDS} rounds (medians)`);
console.log(`  plain validation  ${Math.round(validator)} exchanges/s`);
console.log(`  evolve judgement  ${Math.round(evolve)} exchanges/s`);
console.log(`  ratio             ${(evolve / validator).toFixed(2)}× (target ≥ 0.5×)`);
