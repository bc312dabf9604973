// Routes and mounts that an API request never reaches (/__admin, /__r, /openapi.yaml, /docs, / and
// /favicon.ico), kept on a router of their own behind one check of the path's beginning.
// Each of them as a layer of the app's router cost every API request a path match that fails
// (five or six layers on a create: issue 40, bench/create-cost.md). The check lets through every
// path whose first character after the slash could match one of them, under Express's default
// case-insensitive matching, begins with one of their literal paths, and paths of at most two
// characters (`/` itself matches `//` too); the router behind it then matches exactly as the app's
// router did, in the order they were added. Express matches raw paths (a percent-encoded
// character never matches a literal one) and folds case for ASCII letters only (its expressions
// have the `i` flag without `u`), so a path the check turns away is one no route here could match.
import express, { type RequestHandler, type Router } from 'express';

export class GatedRoutes {
  /** The routes themselves; add to them with `use` and `get` here, so that the check knows their paths. */
  readonly router: Router = express.Router();
  /** Every path added, ASCII-lower-cased (`/` itself aside). */
  private readonly prefixes: string[] = [];

  use(path: string, ...handlers: RequestHandler[]): this {
    this.note([path]);
    this.router.use(path, ...handlers);
    return this;
  }

  get(paths: string | string[], ...handlers: RequestHandler[]): this {
    this.note(Array.isArray(paths) ? paths : [paths]);
    this.router.get(paths, ...handlers);
    return this;
  }

  /** A step that hands the request to the routes when its path may match one of them, else passes it on. */
  gate(): RequestHandler {
    const { router, prefixes } = this;
    return (req, res, next) => {
      const path = req.path;
      if (path.length <= 2 || prefixes.some((prefix) => beginsWith(path, prefix))) return router(req, res, next);
      next();
    };
  }

  private note(paths: readonly string[]): void {
    for (const path of paths) {
      // A parameter, a wildcard or an optional part could match any text: only literal paths are gated.
      if (!/^\/[^:*?{}()[\]\\]*$/.test(path)) throw new Error(`gated routes take literal paths starting with '/', got '${path}'`);
      // Paths of at most two characters (`/` itself) always pass the gate.
      if (path.length > 1) this.prefixes.push([...path].map((char) => String.fromCharCode(asciiLower(char.charCodeAt(0)))).join(''));
    }
  }
}

const asciiLower = (code: number): number => (code >= 65 && code <= 90 ? code + 32 : code);

/** Whether `path` begins with `prefix` (lower case), ASCII letters of `path` folded. */
function beginsWith(path: string, prefix: string): boolean {
  if (path.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i += 1) if (asciiLower(path.charCodeAt(i)) !== prefix.charCodeAt(i)) return false;
  return true;
}
