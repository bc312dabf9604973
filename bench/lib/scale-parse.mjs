// Run as its own process by bench/scale.mjs (`node bench/lib/scale-parse.mjs DB ACCOUNT_KEY`), so
// that its memory is never the server's nor the harness's: reads the db file, times JSON.parse of
// its own text (the floor of a JSON file store's start), then, untimed, counts the links the base and
// its change logs hold (to check that a stop lost nothing acknowledged) and builds the cursor of a
// deep page of ACCOUNT_KEY's links (the middle of its list, newest first), as src/core/link-page.ts
// encodes a cursor. Prints one JSON line. With `--seed FIXTURES ACCOUNT_KEY` (the Redis store, which
// has no file), the data is the seed the mock builds from FIXTURES (dist/fixtures/seed.js, the
// default seed), and only the deep cursor is printed.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';

if (process.argv[2] === '--seed') {
  const [fixtures, accountKey] = process.argv.slice(3);
  const { buildSeed, DEFAULT_SEED } = await import('../../dist/fixtures/seed.js');
  console.log(JSON.stringify(deepPage(buildSeed(DEFAULT_SEED, JSON.parse(readFileSync(fixtures, 'utf8'))), accountKey)));
  process.exit(0);
}

if (process.argv[2] === '--count') {
  // After the stop: the links the base and its logs hold, counted line by line. A base past V8's
  // longest string (~512 MiB: 1,000,000 links and the bench's ~1,300,000 creates) cannot be read as one text.
  const db = process.argv[3];
  const ids = await baseIds(db);
  applyLogs(db, ids);
  console.log(JSON.stringify({ bytes: statSync(db).size, links: ids.size }));
  process.exit(0);
}

const [db, accountKey] = process.argv.slice(2);
const readStarted = performance.now();
const text = readFileSync(db, 'utf8');
const readMs = performance.now() - readStarted;
const parseStarted = performance.now();
const data = JSON.parse(text);
const parseMs = performance.now() - parseStarted;

const ids = new Set(Object.keys(data.links));
applyLogs(db, ids);

console.log(JSON.stringify({ bytes: statSync(db).size, readMs, parseMs, links: ids.size, ...deepPage(data, accountKey) }));

/** The cursor of the page that starts in the middle of the account's links, newest first. */
function deepPage(data, accountKey) {
  const account = data.accounts.find((candidate) => candidate.apiKey === accountKey);
  const own = Object.values(data.links).filter((link) => link.accountId === account?.id);
  own.sort((a, b) => (a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const middle = Math.floor(own.length / 2);
  const before = own[middle - 1];
  const deepCursor = before ? Buffer.from(JSON.stringify([before.createdAt, before.id])).toString('base64url') : undefined;
  return { accountLinks: own.length, deepIndex: middle + 1, deepCursor };
}

/** The change logs' puts and deletes of links, applied to `ids`. */
function applyLogs(db, ids) {
  for (const log of [`${db}.changes.old`, `${db}.changes`]) {
    if (!existsSync(log)) continue;
    for (const line of readFileSync(log, 'utf8').split('\n')) {
      if (!line.startsWith('{"op"')) continue;
      const change = JSON.parse(line);
      if (change.op === 'put-link') ids.add(change.link.id);
      if (change.op === 'delete-link') ids.delete(change.id);
    }
  }
}

/** The keys of the base's links, read a line at a time (the writer's layout: a link a line inside `  "links": {`). */
async function baseIds(db) {
  const ids = new Set();
  let inLinks = false;
  for await (const line of createInterface({ input: createReadStream(db), crlfDelay: Infinity })) {
    if (!inLinks) inLinks = line.startsWith('  "links": {');
    else if (line.startsWith('  }')) return ids;
    else ids.add(JSON.parse(line.slice(4, keyEnd(line) + 1)));
  }
  // Not the writer's layout: the whole text.
  return new Set(Object.keys(JSON.parse(readFileSync(db, 'utf8')).links));
}

/** The index of the closing quote of the key that opens `line` at column 4. */
function keyEnd(line) {
  for (let i = 5; i < line.length; i += 1) {
    if (line[i] === '\\') i += 1;
    else if (line[i] === '"') return i;
  }
  throw new Error(`not a link line: ${line.slice(0, 80)}`);
}
