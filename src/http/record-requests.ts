// Every answered request is recorded once, when its response finishes (or its connection closes,
// for network faults): a log line (method, path, status, ms, the scenario that shaped it), a
// journal entry, and the coverage of the key's client.
import type { Request, RequestHandler, Response } from 'express';
import type { CoverageTracker } from '../core/coverage.js';
import { capBody, maskApiKey, type Journal, type Verdict } from '../core/journal.js';
import type { AccountRecord } from '../core/model.js';
import { API_KEY_HEADER } from './authenticate.js';

export interface Recorders {
  journal: Journal;
  coverage: CoverageTracker;
  log?: (line: string) => void;
}

export function recordRequests(recorders: Recorders): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // Decided now: inside a mounted router (/__admin) Express strips the prefix from req.path.
    const api = isApiRequest(req.path);
    captureJsonBodies(res);
    let recorded = false;
    const record = (): void => {
      if (recorded) return;
      recorded = true;
      const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
      const status = res.headersSent ? res.statusCode : null;
      recorders.log?.(logLine(req, res, status, durationMs));
      if (!api) return;
      const entry = journalEntry(req, res, status, durationMs);
      recorders.journal.add(entry);
      if (entry.operationId && status !== null) {
        const code = (res.locals['responseBody'] as { code?: string } | undefined)?.code ?? null;
        recorders.coverage.record(req.get(API_KEY_HEADER) ?? null, entry.accountId, { operationId: entry.operationId, status, code });
      }
    };
    res.on('finish', record);
    res.on('close', record);
    next();
  };
}

/** The journal keeps the API's traffic, not the admin console's own polling. */
function isApiRequest(path: string): boolean {
  return !path.startsWith('/__admin') && path !== '/openapi.yaml' && !path.startsWith('/docs');
}

function captureJsonBodies(res: Response): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    res.locals['responseBody'] = body;
    return json(body);
  };
}

function logLine(req: Request, res: Response, status: number | null, durationMs: number): string {
  const fault = res.locals['fault'] as string | undefined;
  const shown = status ?? (fault ? `fault:${fault}` : 'closed-before-answer');
  const scenario = res.locals['shapedBy'] as string | undefined;
  return `${req.method} ${req.originalUrl} ${shown} ${durationMs.toFixed(1)}ms${scenario ? ` scenario=${scenario}` : ''}`;
}

function journalEntry(req: Request, res: Response, status: number | null, durationMs: number) {
  const key = req.get(API_KEY_HEADER);
  const fault = (res.locals['fault'] as string | undefined) ?? null;
  return {
    time: new Date().toISOString(),
    method: req.method,
    path: req.originalUrl,
    operationId: (res.locals['operationId'] as string | undefined) ?? null,
    apiKey: key ? maskApiKey(key) : null,
    accountId: (res.locals['account'] as AccountRecord | undefined)?.id ?? null,
    status,
    durationMs,
    scenario: (res.locals['shapedBy'] as string | undefined) ?? null,
    fault,
    verdict: fault ? 'fault' : ((res.locals['verdict'] as Verdict | undefined) ?? 'ok'),
    requestBody: capBody(req.body, contentLength(req.get('content-length'))),
    responseBody: capBody(res.locals['responseBody'], contentLength(res.getHeader('content-length'))),
  } satisfies Parameters<Journal['add']>[0];
}

function contentLength(header: string | number | string[] | undefined): number | undefined {
  const bytes = Number(header);
  return header === undefined || Array.isArray(header) || !Number.isFinite(bytes) ? undefined : bytes;
}
