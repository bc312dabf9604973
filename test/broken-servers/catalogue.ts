// Deliberately broken servers: the reference server with exactly one contract break each, and what
// the suite's failure must say about it. A suite that passes any of these is not doing its job.
import type { Express } from 'express';
import { createReferenceServer, type LinkJson } from './reference-server.js';

export interface BrokenServer {
  name: string;
  /** The break, in words. */
  breaks: string;
  app: () => Express;
  /** Each must match some failure (title and reason) of the run. */
  expect: RegExp[];
}

const without = (link: LinkJson, field: keyof LinkJson): Record<string, unknown> => Object.fromEntries(Object.entries(link).filter(([key]) => key !== field));

export const BROKEN_SERVERS: readonly BrokenServer[] = [
  {
    name: 'createdAt-not-date-time',
    breaks: 'Link.createdAt is written like "Sun, 22 Nov 2026 09:15:04 GMT", not as an RFC 3339 date-time',
    app: () => createReferenceServer({ present: (link) => ({ ...link, createdAt: new Date(link.createdAt).toUTCString() }) }),
    expect: [/createdAt/, /must match format "date-time"/],
  },
  {
    name: 'clickCount-string',
    breaks: 'Link.clickCount is a string ("0")',
    app: () => createReferenceServer({ present: (link) => ({ ...link, clickCount: String(link.clickCount) }) }),
    expect: [/clickCount must be integer/],
  },
  {
    name: 'create-200',
    breaks: 'createLink answers 200 instead of 201',
    app: () => createReferenceServer({ createStatus: 200 }),
    expect: [/expected 201, got 200/, /status 200 is not documented for createLink/],
  },
  {
    name: 'delete-200-with-body',
    breaks: 'deleteLink answers 200 with a body instead of 204 without one',
    app: () => createReferenceServer({ deleted: (res) => void res.status(200).json({ deleted: true }) }),
    expect: [/expected 204, got 200/, /status 200 is not documented for deleteLink/],
  },
  {
    name: 'error-without-errorDescription',
    breaks: 'error bodies are {"error": "..."} without errorDescription',
    app: () => createReferenceServer({ error: (res, status, description) => void res.status(status).json({ error: description }) }),
    expect: [/missing required field 'errorDescription'/, /unexpected field 'error'/],
  },
  {
    name: 'accepts-missing-destinationUrl',
    breaks: 'createLink accepts a body without destinationUrl (and makes one up)',
    app: () => createReferenceServer({ prepareCreate: (body) => ({ destinationUrl: 'https://example.com/', ...body }) }),
    expect: [/without destinationUrl[\s\S]*expected 400, got 201/],
  },
  {
    name: 'html-404',
    breaks: 'an unknown link id is answered with an HTML page',
    app: () => createReferenceServer({ linkNotFound: (res) => void res.status(404).type('html').send('<!doctype html><title>Not Found</title><h1>Not Found</h1>') }),
    expect: [/content type is 'text\/html; charset=utf-8', expected application\/json/],
  },
  {
    name: 'no-shortUrl',
    breaks: 'Link has no shortUrl',
    app: () => createReferenceServer({ present: (link) => without(link, 'shortUrl') }),
    expect: [/missing required field 'shortUrl'/],
  },
  {
    name: 'leaks-other-account',
    breaks: "another account's key can update and delete a link",
    app: () => createReferenceServer({ ignoresOwner: true }),
    expect: [/another account's key on this link \(isolation\): expected 404, got 200/, /another account's key on this link \(isolation\): expected 404, got 204/],
  },
  {
    name: 'update-drops-tags',
    breaks: 'an update that sends only destinationUrl empties the link\'s tags (omitted tags must mean unchanged)',
    app: () => createReferenceServer({ prepareUpdate: (body) => (body['destinationUrl'] !== undefined && body['tags'] === undefined ? { ...body, tags: [] } : body) }),
    expect: [/tags after an update that sent only destinationUrl[^\n]*got \[\]/],
  },
  {
    name: 'no-link-limit',
    breaks: 'an account at its link limit can still create links',
    app: () => createReferenceServer({ linkLimit: 'ignored' }),
    expect: [/from the account at its link limit[^\n]*expected 400, got 201/],
  },
  {
    name: 'link-limit-refused-but-stored',
    breaks: 'a create over the link limit is answered LINK_LIMIT_REACHED, but the link is stored anyway',
    app: () => createReferenceServer({ linkLimit: 'refused-but-stored' }),
    expect: [/refused to the account at its link limit[^\n]*must still be free[^\n]*expected 201, got 400/],
  },
  {
    name: 'link-limit-blocks-update-delete',
    breaks: 'an account at its link limit cannot update or delete its links either (LINK_LIMIT_REACHED)',
    app: () => createReferenceServer({ linkLimit: 'every-write' }),
    expect: [/updateLink [^\n]*account at its link limit[^\n]*expected 200, got 400/, /deleteLink [^\n]*account at its link limit[^\n]*expected 404, got 400/],
  },
  {
    name: 'other-account-domain',
    breaks: "an account can create links on another account's custom domain",
    app: () => createReferenceServer({ anyAccountsDomain: true }),
    expect: [/the second account's custom domain 'links\.globex\.test' \(isolation\): expected 404, got 201/],
  },
  {
    name: 'other-account-tag-id',
    breaks: "an account can create links with another account's tag id",
    app: () => createReferenceServer({ anyAccountsTagIds: true }),
    expect: [/the second account's tag id '[^']+' \(isolation\): expected 404, got 201/],
  },
  {
    name: 'slug-not-unique',
    breaks: 'two links can share a slug in one domain',
    app: () => createReferenceServer({ slugsNotUnique: true }),
    expect: [/already taken in 'short\.test': expected 400, got 201/],
  },
  {
    name: 'tags-not-reused-by-name',
    breaks: 'every tag name sent makes a new tag, even one the account already has',
    app: () => createReferenceServer({ tagsNotReused: true }),
    expect: [/tags of a second link with the tag name 'contract-suite-reuse' \(same id: reused\): expected/],
  },
  {
    name: 'delete-keeps-link',
    breaks: 'a delete answers 204 but the link stays',
    app: () => createReferenceServer({ deleteKeepsLink: true }),
    expect: [/the deleted link \(it must be gone\): expected 404, got 200/],
  },
];
