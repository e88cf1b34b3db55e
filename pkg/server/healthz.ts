// /healthz, /livez and /readyz: named checks, `?verbose`, `?exclude=<check>` and
// `/<endpoint>/<check>`, answered with the plain-text shape upstream uses.
import type { Request, Response } from 'express';
import { requestInfoOf } from './filters.js';

export interface HealthCheck {
  name: string;
  /** Resolves to an error message when unhealthy, or undefined when healthy. */
  check(): Promise<string | undefined>;
}

async function run(c: HealthCheck): Promise<string | undefined> {
  try {
    return await c.check();
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Serves one health endpoint (`healthz`, `livez` or `readyz`) over the given checks. */
export function healthHandler(endpoint: string, checks: () => HealthCheck[]) {
  return async (_req: Request, res: Response): Promise<void> => {
    const { path, query } = requestInfoOf(res);
    const sub = path.replace(/\/+$/, '').split('/').slice(2).join('/');
    const all = checks();
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-cache, private');
    if (sub) {
      const c = all.find((x) => x.name === sub);
      if (!c) {
        res.status(404).end('404 page not found\n');
        return;
      }
      const err = await run(c);
      if (err === undefined) res.status(200).end('ok');
      else res.status(500).end(`internal server error: ${err}\n`);
      return;
    }
    const excluded = new Set(query.getAll('exclude'));
    const verbose = query.has('verbose');
    const results = await Promise.all(all.map(async (c) => ({ name: c.name, err: excluded.has(c.name) ? undefined : await run(c) })));
    const lines: string[] = [];
    let failed = false;
    for (const r of results) {
      if (excluded.has(r.name)) {
        lines.push(`[+]${r.name} excluded: ok`);
        excluded.delete(r.name);
      } else if (r.err === undefined) lines.push(`[+]${r.name} ok`);
      else {
        failed = true;
        lines.push(`[-]${r.name} failed: reason withheld`);
      }
    }
    if (excluded.size > 0) lines.push(`warn: some health checks cannot be excluded: no matches for ${[...excluded].map((e) => JSON.stringify(e)).join(',')}`);
    if (failed) {
      res.status(500).end(`${lines.join('\n')}\n${endpoint} check failed\n`);
      return;
    }
    res.status(200).end(verbose ? `${lines.join('\n')}\n${endpoint} check passed\n` : 'ok');
  };
}
