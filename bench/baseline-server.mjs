// The baseline of every ratio: a bare Express 5 app (the project's own express) with JSON body
// parsing on, answering each route the workloads use with a fixed, valid Link. No validation, no
// state, no disk. Listens on loopback, port 0 (or PORT), and prints "listening on <url>".
// `--app-server` serves the same app through the mock's createHttpServer (dist/, so build first)
// instead of app.listen: a reference row that shows what that server alone is worth.
// `--validator` (with --app-server: the validator floor) puts the mock's own contract validator
// (dist/: requests and responses against openapi.yaml, with its run-time fixes) in front of the
// API's routes: what validating costs, with nothing else of the mock (bench/create-cost.md).
import express from 'express';

export const FIXED_LINK = Object.freeze({
  id: 'lnk_Bench0000000000a',
  createdAt: '2026-11-01T12:00:00.000Z',
  destinationUrl: 'https://example.com/bench',
  slug: 'bench01',
  domain: { id: 'dom_Bench0000000000b', name: 'short.test' },
  shortUrl: 'https://short.test/bench01',
  clickCount: 0,
  tags: [{ id: 'tag_Bench0000000000c', name: 'bench' }],
});

const FIXED_ERROR = Object.freeze({ errorDescription: 'The account has reached its link limit (forced by a mock scenario)', code: 'LINK_LIMIT_REACHED' });

/** What the read-heavy workload reads: a small account's 15 links (other-key has 15 in the mock). */
const LINK_LIST = Object.freeze({ links: Array.from({ length: 15 }, () => FIXED_LINK) });

const app = express();
app.use(express.json());
// The scenario workload sends x-mock-scenario: the bare counterpart of a forced error is a fixed 400.
if (process.argv.includes('--validator')) {
  const { contractValidator } = await import('../dist/src/http/validator.js');
  const { readContract } = await import('../dist/src/contract/package-files.js');
  app.use(['/links', '/links/:id'], contractValidator(readContract().document));
}
app.post('/links', (req, res) => void (req.get('x-mock-scenario') ? res.status(400).json(FIXED_ERROR) : res.status(201).json(FIXED_LINK)));
app.put('/links/:id', (_req, res) => void res.status(200).json(FIXED_LINK));
app.delete('/links/:id', (_req, res) => void res.status(204).end());
app.get('/__admin/links', (_req, res) => void res.status(200).json(LINK_LIST));
app.get('/__admin/health', (_req, res) => void res.status(200).json({ status: 'ok' }));

const port = Number(process.env.PORT ?? 0);
const onListening = () => console.log(`baseline listening on http://127.0.0.1:${server.address().port}`);
const server = process.argv.includes('--app-server')
  ? (await import('../dist/src/http/server.js')).createHttpServer(app).listen(port, '127.0.0.1', onListening)
  : app.listen(port, '127.0.0.1', onListening);
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
