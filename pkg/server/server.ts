// The generic HTTPS API server: the handler chain, health and version endpoints, and an orderly
// start and stop. What it serves under /api and /apis is handed in as an APIHandler.
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { APIHandler } from '../endpoints/api-handler.js';
import { writeError, writeObject } from '../endpoints/responses.js';
import type { Logger } from '../log/logger.js';
import { newRequestEntityTooLarge, newBadRequest, newUnsupportedMediaType, StatusError } from '../runtime/errors.js';
import { requestInfoOf, withInflightLimit, withRequestInfo } from './filters.js';
import { healthHandler, type HealthCheck } from './healthz.js';
import type { ServingCert } from './serving-cert.js';

export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

export interface ServerConfig {
  bindAddress: string;
  securePort: number;
  cert: ServingCert;
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  /** Request bodies above this many bytes are answered with 413. */
  maxRequestBodyBytes: number;
  api: APIHandler;
  livezChecks: HealthCheck[];
  readyzChecks: HealthCheck[];
  version: VersionInfo;
  logger: Logger;
}

/** Upstream's body-parser error types, mapped to the Status a client should get. */
function bodyError(err: unknown): StatusError | undefined {
  const type = (err as { type?: unknown }).type;
  switch (type) {
    case 'entity.too.large':
      return newRequestEntityTooLarge('the request body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return newUnsupportedMediaType(String((err as Error).message), ['application/json', 'application/yaml']);
    case 'request.size.invalid':
    case 'entity.verify.failed':
    case 'request.aborted':
      return newBadRequest(String((err as Error).message));
    default:
      return undefined;
  }
}

export class APIServer {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  readonly app: express.Express;

  constructor(private readonly cfg: ServerConfig) {
    this.app = this.buildApp();
  }

  private buildApp(): express.Express {
    const { cfg } = this;
    const app = express();
    app.disable('x-powered-by');
    app.set('etag', false);
    app.set('query parser', false);
    app.use(withRequestInfo);
    app.use(withInflightLimit(cfg.maxRequestsInflight, cfg.maxMutatingRequestsInflight));
    // Authentication, audit, impersonation and authorization join the chain here, in that order.
    app.get(['/healthz', '/healthz/*check'], healthHandler('healthz', () => cfg.readyzChecks));
    app.get(['/livez', '/livez/*check'], healthHandler('livez', () => cfg.livezChecks));
    app.get(['/readyz', '/readyz/*check'], healthHandler('readyz', () => cfg.readyzChecks));
    app.get('/version', (_req, res) => writeObject(res, 200, cfg.version, { pretty: true }));
    app.use(['/api', '/apis'], express.raw({ type: () => true, limit: cfg.maxRequestBodyBytes }));
    app.use(async (req: Request, res: Response, next: NextFunction) => {
      const info = requestInfoOf(res);
      if (!info.path.startsWith('/api/') && info.path !== '/api' && !info.path.startsWith('/apis/') && info.path !== '/apis') {
        next();
        return;
      }
      await cfg.api(req, res, info);
    });
    app.use((_req: Request, res: Response) => {
      writeError(res, new StatusError(404, 'NotFound', 'the server could not find the requested resource', {}));
    });
    app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
      const mapped = err instanceof StatusError ? err : bodyError(err);
      if (!mapped) cfg.logger.error('request failed with an internal error', { method: req.method, path: req.path, err: err instanceof Error ? err.stack ?? err.message : String(err) });
      writeError(res, mapped ?? err);
    });
    return app;
  }

  /** Starts listening; resolves with the bound port. */
  async start(): Promise<number> {
    const { cfg } = this;
    const server = createServer({ cert: cfg.cert.cert, key: cfg.cert.key, minVersion: 'TLSv1.2' }, this.app);
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
    server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    server.on('tlsClientError', () => undefined);
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(cfg.securePort, cfg.bindAddress, () => resolve());
    });
    const addr = server.address();
    return typeof addr === 'object' && addr ? addr.port : cfg.securePort;
  }

  /** Stops accepting connections and waits up to `drainMs` for in-flight requests before closing the rest. */
  async stop(drainMs = 5000): Promise<void> {
    const server = this.server;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timer = setTimeout(() => {
      for (const s of this.sockets) s.destroy();
    }, drainMs);
    await closed;
    clearTimeout(timer);
    this.server = undefined;
  }
}
