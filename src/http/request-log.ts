// One log line per request: method, path, status, milliseconds, and the scenario that shaped the
// answer if one did. A request dropped by a network fault is logged when its connection closes.
import type { RequestHandler, Response } from 'express';

export function requestLog(log: (line: string) => void): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    let logged = false;
    const write = (status: string): void => {
      if (logged) return;
      logged = true;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log(`${req.method} ${req.originalUrl} ${status} ${ms.toFixed(1)}ms${shapedBy(res)}`);
    };
    res.on('finish', () => write(String(res.statusCode)));
    res.on('close', () => write(res.locals['fault'] ? `fault:${String(res.locals['fault'])}` : 'closed-before-answer'));
    next();
  };
}

function shapedBy(res: Response): string {
  const scenario = res.locals['shapedBy'] as string | undefined;
  return scenario ? ` scenario=${scenario}` : '';
}
