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
];
