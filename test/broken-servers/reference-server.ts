// A small, correct, in-memory implementation of the three operations: the base every deliberately
// broken server is built from, each by one entry of `Breaks`. It must itself pass the whole contract
// suite (test/contract/catches-broken.test.ts proves it), so that when a broken server fails, the
// failure can only come from its one break. It knows nothing of x-mock-scenario, like a real
// deployment, so LINK_LIMIT_REACHED is "not checked" against it.
import express, { type ErrorRequestHandler, type Express, type Response } from 'express';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { CONTRACT_FILE } from '../../src/package-files.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export interface LinkJson {
  id: string;
  createdAt: string;
  destinationUrl: string;
  slug: string;
  domain: { id: string; name: string };
  shortUrl: string;
  clickCount: number;
  tags: { id: string; name: string }[];
}

/** One way to break the contract; a correct server sets none. */
export interface Breaks {
  /** How a Link is written into a response. */
  present?: (link: LinkJson) => Record<string, unknown>;
  createStatus?: number;
  /** How a successful delete is answered (correct: 204, no body). */
  deleted?: (res: Response) => void;
  /** How every error is written (correct: an Error object). */
  error?: (res: Response, status: number, description: string) => void;
  /** How an unknown link id is answered (correct: the 404 Error above). */
  linkNotFound?: (res: Response, id: string) => void;
  /** Applied to a create body before validation. */
  prepareCreate?: (body: Record<string, unknown>) => Record<string, unknown>;
  /** Lets any account update and delete any link. */
  ignoresOwner?: boolean;
}

interface Account {
  domains: string[];
  tags: Map<string, { id: string; name: string }>;
}
type Tag = { id?: string; name: string };

export const REFERENCE_ACCOUNTS = { 'demo-key': ['short.test', 'go.acme.test'], 'other-key': ['short.test', 'links.globex.test'] };

export function createReferenceServer(breaks: Breaks = {}): Express {
  const validate = requestValidators();
  const accounts = new Map<string, Account>(Object.entries(REFERENCE_ACCOUNTS).map(([key, domains]) => [key, { domains, tags: new Map() }]));
  const links = new Map<string, { owner: string; link: LinkJson }>();
  let counter = 0;
  const nextId = (prefix: string): string => `${prefix}_${(++counter).toString(36).padStart(8, '0')}`;
  const present = breaks.present ?? ((link: LinkJson) => link);
  const fail = breaks.error ?? ((res: Response, status: number, errorDescription: string) => void res.status(status).json({ errorDescription }));
  const linkNotFound = breaks.linkNotFound ?? ((res: Response, id: string) => fail(res, 404, `link '${id}' not found`));
  const taken = (domain: string, slug: string): boolean => [...links.values()].some(({ link }) => link.domain.name === domain && link.slug === slug);

  /** Resolves tags by id or name; a string is the error (status, description) and nothing changed. */
  const resolveTags = (account: Account, tags: Tag[]): { id: string; name: string }[] | [number, string] => {
    for (const tag of tags.filter((candidate) => candidate.id !== undefined)) {
      const known = [...account.tags.values()].find((existing) => existing.id === tag.id);
      if (!known) return [404, `tag '${tag.id}' not found`];
      if (known.name !== tag.name.trim()) return [400, `tag '${tag.id}' is named '${known.name}', not '${tag.name}'`];
    }
    const names = [...new Set(tags.map((tag) => tag.name.trim()))];
    return names.map((name) => account.tags.get(name) ?? account.tags.set(name, { id: nextId('tag'), name }).get(name)!);
  };
  const findLink = (id: string, apiKey: string) => {
    const stored = links.get(id);
    return stored && (breaks.ignoresOwner || stored.owner === apiKey) ? stored : undefined;
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // The key first, before the body is even parsed.
  app.use('/links', (req, res, next) => {
    const key = req.get('x-api-key');
    if (!key) return fail(res, 401, 'The x-api-key header is missing');
    if (!accounts.has(key)) return fail(res, 401, 'The x-api-key header names no account');
    res.locals['apiKey'] = key;
    next();
  });
  app.use(express.json());
  app.post('/links', (req, res) => {
    const body = breaks.prepareCreate ? breaks.prepareCreate({ ...(req.body as object) }) : req.body;
    if (!validate.create(body)) return fail(res, 400, `request body: ${ajvText(validate.create)}`);
    const request = body as { destinationUrl: string; domain: string; slug?: string; tags: Tag[] };
    const apiKey = res.locals['apiKey'] as string;
    const account = accounts.get(apiKey)!;
    if (!account.domains.includes(request.domain)) return fail(res, 404, `domain '${request.domain}' not found`);
    const tags = resolveTags(account, request.tags);
    if (typeof tags[0] === 'number') return fail(res, tags[0], String(tags[1]));
    let slug = request.slug ?? '';
    while (slug === '' || (!request.slug && taken(request.domain, slug))) slug = `r${(++counter).toString(36).padStart(6, '0')}`;
    if (taken(request.domain, slug)) return fail(res, 400, `slug '${slug}' is already taken in domain '${request.domain}'`);
    const domain = { id: `dom_${account.domains.indexOf(request.domain)}_${request.domain}`, name: request.domain };
    const link: LinkJson = { id: nextId('lnk'), createdAt: new Date().toISOString(), destinationUrl: request.destinationUrl, slug, domain, shortUrl: `https://${request.domain}/${slug}`, clickCount: 0, tags: tags as LinkJson['tags'] };
    links.set(link.id, { owner: apiKey, link });
    res.status(breaks.createStatus ?? 201).json(present(link));
  });
  app.put('/links/:id', (req, res) => {
    if (!validate.update(req.body)) return fail(res, 400, `request body: ${ajvText(validate.update)}`);
    const stored = findLink(req.params.id, res.locals['apiKey'] as string);
    if (!stored) return linkNotFound(res, req.params.id);
    const request = req.body as { destinationUrl?: string; tags?: Tag[] };
    const tags = request.tags ? resolveTags(accounts.get(res.locals['apiKey'] as string)!, request.tags) : stored.link.tags;
    if (typeof tags[0] === 'number') return fail(res, tags[0], String(tags[1]));
    stored.link = { ...stored.link, destinationUrl: request.destinationUrl ?? stored.link.destinationUrl, tags: tags as LinkJson['tags'] };
    res.status(200).json(present(stored.link));
  });
  app.delete('/links/:id', (req, res) => {
    const stored = findLink(req.params.id, res.locals['apiKey'] as string);
    if (!stored) return linkNotFound(res, req.params.id);
    links.delete(stored.link.id);
    if (breaks.deleted) breaks.deleted(res);
    else res.status(204).end();
  });
  app.use((req, res) => fail(res, 404, `no operation at ${req.method} ${req.path}`));
  const bodyErrors: ErrorRequestHandler = (error: Error, _req, res, _next) => fail(res, 400, `request body is not valid JSON: ${error.message}`);
  app.use(bodyErrors);
  return app;
}

function requestValidators(): { create: ValidateFunction; update: ValidateFunction } {
  const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
  ajv.addSchema(parse(readFileSync(CONTRACT_FILE, 'utf8')) as object, 'openapi');
  return { create: ajv.compile({ $ref: 'openapi#/components/schemas/CreateLinkRequest' }), update: ajv.compile({ $ref: 'openapi#/components/schemas/UpdateLinkRequest' }) };
}

function ajvText(validate: ValidateFunction): string {
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`).join('; ');
}
