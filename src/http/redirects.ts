// Clicks for real: a visit of a short URL answers a 302 to its destination and counts a click,
// so a frontend can show moving counters. Two ways to visit: GET /__r/<domain>/<slug> from
// anywhere, or GET /<slug> with `Host: <domain>` (point the domain at the mock, e.g. in /etc/hosts).
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { visit } from '../core/admin-ops.js';
import type { LinkService } from '../core/links.js';

const SLUG_PATH = /^\/([A-Za-z0-9_-]{1,50})$/;

/** Mounted at /__r. */
export function redirectRouter(service: LinkService): Router {
  const router = express.Router();
  router.get('/:domain/:slug', async (req, res) => {
    res.redirect(302, await visit(service, String(req.params['domain']), String(req.params['slug'])));
  });
  return router;
}

/**
 * Requests whose Host is one of the mock's short-link domains are visits, not API calls. Only a
 * GET of /<slug> can be one: any other request (a create, most of all) passes on at once, without
 * the promise and the reaction an async step costs each request it runs for.
 */
export function redirectByHost(service: LinkService): RequestHandler {
  const visitByHost = async (req: Request, res: Response, next: NextFunction, slug: string): Promise<void> => {
    if (!(await service.store.domainByName(req.hostname))) return next();
    res.redirect(302, await visit(service, req.hostname, slug));
  };
  return (req, res, next) => {
    if (req.method !== 'GET') return next();
    const slug = SLUG_PATH.exec(req.path)?.[1];
    if (!slug) return next();
    return visitByHost(req, res, next, slug);
  };
}
