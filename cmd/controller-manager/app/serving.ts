// The manager's own HTTPS endpoint (--secure-port, --bind-address): /healthz (and /livez,
// /readyz) for probes and /metrics for Prometheus, on a self-signed certificate kept in --cert-dir.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { ensureSelfSignedCert } from '../../../pkg/server/serving-cert.js';

export interface HealthCheck {
  name: string;
  /** An error message when unhealthy, undefined when healthy. */
  check(): string | undefined;
}

export interface SecureServing {
  port: number;
  /** PEM of the serving certificate (self-signed: it is its own CA). */
  cert: string;
  close(): Promise<void>;
}

/** Answers a health endpoint as upstream does: `ok`, or the failing checks and 500. */
function health(checks: HealthCheck[], verbose: boolean): { code: number; body: string } {
  const results = checks.map((c) => ({ name: c.name, err: c.check() }));
  const failed = results.filter((r) => r.err !== undefined);
  if (failed.length === 0 && !verbose) return { code: 200, body: 'ok' };
  const lines = results.map((r) => (r.err === undefined ? `[+]${r.name} ok` : `[-]${r.name} failed: reason withheld`));
  return failed.length === 0
    ? { code: 200, body: `${lines.join('\n')}\nhealthz check passed\n` }
    : { code: 500, body: `${lines.join('\n')}\nhealthz check failed\n` };
}

/** Starts serving; resolves once listening. */
export async function startSecureServing(opts: { bindAddress: string; port: number; certDir: string; registry: Registry; checks: HealthCheck[] }): Promise<SecureServing> {
  const pair = ensureSelfSignedCert({ certDir: opts.certDir, hosts: [opts.bindAddress] });
  const server: Server = createServer({ cert: pair.cert, key: pair.key }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://localhost');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const send = (code: number, type: string, body: string) => {
      res.writeHead(code, { 'Content-Type': type, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache, private' });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain; charset=utf-8', 'method not allowed\n');
    const healthPath = /^\/(healthz|livez|readyz)(?:\/(.+))?$/.exec(path);
    if (healthPath) {
      const only = healthPath[2];
      const checks = only ? opts.checks.filter((c) => c.name === only) : opts.checks;
      if (only && checks.length === 0) return send(404, 'text/plain; charset=utf-8', '404 page not found\n');
      const r = health(checks, url.searchParams.has('verbose'));
      return send(r.code, 'text/plain; charset=utf-8', r.body);
    }
    if (path === '/metrics') {
      void opts.registry.metrics().then((text) => send(200, opts.registry.contentType, text), (e: unknown) => send(500, 'text/plain; charset=utf-8', `${String(e)}\n`));
      return;
    }
    send(404, 'text/plain; charset=utf-8', '404 page not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.bindAddress, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    cert: pair.cert,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
