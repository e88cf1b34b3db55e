// The generic HTTPS API server: the handler chain, health, metrics and version endpoints, and an
// orderly start and shutdown. What it serves under /api and /apis is handed in as an APIHandler.
import { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { APIHandler } from '../endpoints/api-handler.js';
import { isLongRunning } from '../endpoints/request-info.js';
import { setUpgradeConnection } from '../endpoints/upgrade.js';
import { writeError, writeJSON } from '../endpoints/responses.js';
import type { Logger } from '../log/logger.js';
import type { APIServerMetrics } from '../metrics/apiserver-metrics.js';
import { newBadRequest, newRequestEntityTooLarge, newUnsupportedMediaType, StatusError } from '../runtime/errors.js';
import { clientErrors } from './client-errors.js';
import { ConnectionResponses } from './connection-responses.js';
import { dropBodyFraming, requestFromHead, serveDetached } from './detached-request.js';
import { requestInfoOf, requestLabels, withInflightLimit, withRequestInfo } from './filters.js';
import type { Authorizer } from '../authorization/authorizer.js';
import { withAuthentication, type RequestAuthentication } from './authentication-filter.js';
import { withAuthorization, withImpersonation, type Impersonation } from './authorization-filter.js';
import { auditFailedAuthentication, withAudit, withAuditInit, type AuditServerConfig } from './audit-filter.js';
import { requestAudit } from '../endpoints/request-audit.js';
import { healthHandler, type HealthCheck } from './healthz.js';
import { inOrder } from './in-order.js';
import type { Lifecycle } from './lifecycle.js';
import { plainAnswerLine, writePlainAnswer, type PlainAnswer } from './plain-answers.js';
import { asksForUpgrade, protocolViolation } from './protocol-checks.js';
import { classifyTarget } from './request-target.js';
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

/** A fixed document served at a path (the service account issuer's OpenID discovery documents). */
export interface StaticDocument {
  path: string;
  contentType: string;
  cacheControl: string;
  body: string;
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
  /** Serves /openapi/...; passes other requests on. */
  openapi: RequestHandler;
  /** Checks shared by every health endpoint (ping, log, etcd, ...). */
  healthChecks: HealthCheck[];
  lifecycle: Lifecycle;
  metrics: APIServerMetrics;
  version: VersionInfo;
  logger: Logger;
  /** Requests (not watches) taking longer are logged as slow; upstream traces requests over 500 ms. */
  slowRequestMs?: number;
  /** Who each request is from; without it requests go on unauthenticated (tests of the layers below). */
  authenticate?: RequestAuthentication;
  /** PEM CA certificates a client certificate is asked for against (the client CA and the request-header CA). */
  clientCAs?: string[];
  /** Fixed documents served by GET at their paths. */
  documents?: StaticDocument[];
  /** Decides whether each authenticated request may go on; without it every request may. */
  authorizer?: Authorizer;
  /** Applies the Impersonate-* headers; without it they are ignored. */
  impersonation?: Impersonation;
  /**
   * The aggregator's proxy: requests of group versions extension API servers serve go there once
   * authenticated (the extension server authorizes them); others pass on.
   */
  proxy?: RequestHandler;
  /** The audit policy and log (--audit-policy-file, --audit-log-path); without it nothing is audited. */
  audit?: AuditServerConfig;
  /**
   * Checks added to /readyz beside this server's own: with --workers, one per worker
   * thread, so any thread answers whether the whole server can take requests.
   */
  peerHealthChecks?: () => HealthCheck[];
  /** What /metrics serves instead of this server's registry (the sum over worker threads). */
  renderMetrics?: () => Promise<{ body: string; contentType: string }>;
  /** Sent as `X-Orch-Worker` on every answer: which worker thread served the request. */
  servedBy?: string;
  /** Listen with SO_REUSEPORT, beside the other threads of the server on the same port (the kernel spreads connections over them). */
  reusePort?: boolean;
}

export type HealthEndpoint = 'livez' | 'readyz' | 'healthz';

export interface ShutdownOptions {
  /** Keep serving this long after readyz starts failing, so load balancers can notice. */
  delayMs: number;
  /** How long in-flight requests may take to finish once the listener is closed. */
  drainMs: number;
}

/**
 * The largest request head (request line and headers) read: upstream's MaxHeaderBytes (1 MiB) plus
 * the 4 KiB Go's server always allows on top, so any head kube-apiserver reads is read here too.
 * Beyond it the answer is 431.
 */
export const maxRequestHeadBytes = (1 << 20) + 4096;
/** How long a connection being closed after an error answer is drained before it is destroyed. */
const lingerMs = 5_000;

/** The client's address as Go prints a net.Addr: `127.0.0.1:5678`, `[::1]:5678`. */
function remoteAddr(socket: Duplex): string {
  const { remoteAddress: ip, remotePort: port } = socket as Socket;
  if (!ip) return 'unknown';
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** Upstream's body-parser error types, mapped to the Status a client should get. */
function bodyError(err: unknown): StatusError | undefined {
  const type = (err as { type?: unknown }).type;
  switch (type) {
    case 'entity.too.large':
      return newRequestEntityTooLarge('the request body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return newUnsupportedMediaType(['application/json', 'application/yaml']);
    case 'request.size.invalid':
    case 'entity.verify.failed':
    case 'request.aborted':
      return newBadRequest(String((err as Error).message));
    default: {
      // Other client errors express raises (a path parameter that does not percent-decode) are 400s.
      const status = (err as { status?: unknown }).status;
      return typeof status === 'number' && status >= 400 && status < 500
        ? new StatusError(status, status === 400 ? 'BadRequest' : '', String((err as Error).message))
        : undefined;
    }
  }
}

const notFound = () => new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});

/** A Status for a request answered before the handler chain (which would negotiate its format). */
function writeStatusOnly(res: ServerResponse, err: StatusError): void {
  const body = JSON.stringify(err.status);
  res.writeHead(err.code, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * The classes of the requests and responses Node's server builds, born with the prototypes express
 * gives them. Express sets those on every request (Object.setPrototypeOf in app.handle), and V8
 * answers that with a hidden class of the object's own for every request and response: measured,
 * about 2 KiB of heap per request for as long as it lives (every open watch), and property loads
 * that meet a new shape on every request. Born with them, express's change is no change, and every
 * request shares its shapes.
 */
function bornForExpress(app: express.Express): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  class Request extends IncomingMessage {}
  class Response extends ServerResponse {}
  Object.setPrototypeOf(Request.prototype, app.request);
  Object.setPrototypeOf(Response.prototype, app.response);
  app.request = Request.prototype as unknown as express.Request;
  app.response = Response.prototype as unknown as express.Response;
  return { IncomingMessage: Request, ServerResponse: Response as typeof ServerResponse };
}

const methodNotAllowed = () => new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});

export class APIServer {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  /** Stop functions of open long-running requests (watches). */
  private readonly longRunning = new Set<() => void>();
  private inflight = 0;
  private draining = false;
  private readonly responses = new ConnectionResponses();
  readonly app: express.Express;

  constructor(private readonly cfg: ServerConfig) {
    this.app = this.buildApp();
  }

  /** Registers an open watch so shutdown can close it; returns the function that unregisters it. */
  trackLongRunning(stop: () => void): () => void {
    this.longRunning.add(stop);
    return () => this.longRunning.delete(stop);
  }

  private buildApp(): express.Express {
    const { cfg } = this;
    const app = express();
    app.disable('x-powered-by');
    app.set('etag', false);
    app.set('query parser', false);
    const chain: RequestHandler[] = [withRequestInfo];
    // Every answer carries its Audit-Id, audited or not, as upstream's outermost filter sends it.
    chain.push(withAuditInit(cfg.logger));
    chain.push((req: Request, res: Response, next: NextFunction) => {
      const info = requestInfoOf(res);
      const started = process.hrtime.bigint();
      const longRunning = isLongRunning(info);
      if (!longRunning) this.inflight++;
      if (this.draining) res.setHeader('Connection', 'close');
      const untrack = longRunning ? cfg.metrics.longRunning(requestLabels(req.method, info)) : undefined;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        if (!longRunning) this.inflight--;
        untrack?.();
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        this.logRequest(req, res, info.verb, seconds, longRunning);
        if (info.path === '/metrics' || info.path.startsWith('/livez') || info.path.startsWith('/readyz') || info.path.startsWith('/healthz')) return;
        const dryRun = info.query.getAll('dryRun').includes('All');
        cfg.metrics.request(requestLabels(req.method, info), dryRun, res.statusCode, seconds);
      };
      res.on('finish', finish);
      res.on('close', finish);
      next();
    });
    chain.push(withInflightLimit(cfg.maxRequestsInflight, cfg.maxMutatingRequestsInflight, (kind, n) => cfg.metrics.setInflight(kind, n)));
    if (cfg.authenticate) chain.push(withAuthentication(cfg.authenticate, cfg.logger, cfg.audit && auditFailedAuthentication(cfg.audit, requestInfoOf)));
    // After authentication and before impersonation, so the event names the real user and the impersonated one.
    if (cfg.audit) chain.push(withAudit(cfg.audit, requestInfoOf));
    if (cfg.impersonation) chain.push(withImpersonation(cfg.impersonation));
    if (cfg.proxy) chain.push(cfg.proxy);
    if (cfg.authorizer) chain.push(withAuthorization(cfg.authorizer, requestInfoOf, cfg.logger, cfg.audit?.authorizationAnnotations));
    // API requests, the most by far, end within this one layer: the filters, then the body and the
    // API handler, without express walking the layers of the other routes (which follow).
    const body = express.raw({ type: () => true, limit: cfg.maxRequestBodyBytes });
    chain.push((req: Request, res: Response, next: NextFunction) => {
      const { path } = requestInfoOf(res);
      if (!path.startsWith('/api/') && path !== '/api' && !path.startsWith('/apis/') && path !== '/apis') {
        next('router');
        return;
      }
      body(req, res, next);
    }, async (req: Request, res: Response) => {
      await cfg.api(req, res, requestInfoOf(res));
    });
    app.use(inOrder(chain));
    // The other threads' checks say whether the server can take every request, not whether it
    // lives: /livez and /healthz (often a liveness probe too) stay 200 while one thread serves.
    const livez = () => this.localChecks('livez');
    const readyz = () => [...this.localChecks('readyz'), ...(cfg.peerHealthChecks?.() ?? [])];
    const healthz = () => this.localChecks('healthz');
    app.get(['/healthz', '/healthz/*check'], healthHandler('healthz', healthz));
    app.get(['/livez', '/livez/*check'], healthHandler('livez', livez));
    app.get(['/readyz', '/readyz/*check'], healthHandler('readyz', readyz));
    app.all('/version', (req, res) => {
      if (req.method !== 'GET') throw methodNotAllowed();
      writeJSON(res, 200, cfg.version, true);
    });
    app.get('/metrics', async (_req, res) => {
      const { body, contentType } = await (cfg.renderMetrics ?? (() => cfg.metrics.render()))();
      res.status(200).setHeader('Content-Type', contentType);
      res.end(body);
    });
    for (const doc of cfg.documents ?? []) {
      app.all(doc.path, (req, res) => {
        if (req.method !== 'GET') throw methodNotAllowed();
        res.status(200).setHeader('Content-Type', doc.contentType);
        res.setHeader('Cache-Control', doc.cacheControl);
        res.end(doc.body);
      });
    }
    app.use(cfg.openapi);
    app.use((_req: Request, res: Response) => {
      writeError(res, notFound());
    });
    app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
      const mapped = err instanceof StatusError ? err : bodyError(err);
      if (!mapped) {
        cfg.logger.error('request failed with an internal error', { method: req.method, path: req.path, err: err instanceof Error ? err.stack ?? err.message : String(err) });
        // A bug, not an answer: the audit event's last stage is Panic, as for a panicking Go handler.
        requestAudit(res)?.panic(err instanceof Error ? err.message : String(err));
      }
      writeError(res, mapped ?? err);
    });
    return app;
  }

  /** This server's own checks of one health endpoint. */
  private localChecks(endpoint: HealthEndpoint): HealthCheck[] {
    const { healthChecks, lifecycle } = this.cfg;
    switch (endpoint) {
      case 'livez':
        return [...healthChecks, ...lifecycle.hookChecks(true)];
      case 'readyz':
        return [...healthChecks, ...lifecycle.hookChecks(false), lifecycle.shutdownCheck()];
      case 'healthz':
        return [...healthChecks, ...lifecycle.hookChecks(false)];
    }
  }

  /** Every 5xx answer is an error line for the operator; slow requests are noted (watches are long by design). */
  private logRequest(req: Request, res: Response, verb: string, seconds: number, longRunning: boolean): void {
    const slow = !longRunning && seconds * 1000 >= (this.cfg.slowRequestMs ?? 500);
    if (res.statusCode < 500 && !slow) return;
    const kv = {
      verb: verb.toUpperCase(),
      // The path without its query: queries may carry selectors and continue tokens nobody needs in a log.
      path: req.path,
      userAgent: req.headers['user-agent'] ?? '',
      status: res.statusCode,
      latency: `${(seconds * 1000).toFixed(1)}ms`,
      ...(res.statusCode >= 500 ? { err: String(res.locals.failure ?? '') } : {}),
    };
    if (res.statusCode >= 500) this.cfg.logger.error('request failed with a server error', kv);
    else this.cfg.logger.warn('slow request', kv);
  }

  /**
   * A request refused before any handler (a malformed request line or head, another HTTP version).
   * Go's server answers these without a word in its log; operators asked to see them, so each gets
   * one line, naming the client and the answer and never the request's bytes, which may hold a
   * token. A head that never arrived in time is not malformed, and is left out as Go leaves it.
   */
  private logRefusal(a: PlainAnswer, socket: Duplex): void {
    if (a.code === 408) return;
    this.cfg.logger.info('refused a malformed request', { client: remoteAddr(socket), answer: plainAnswerLine(a) });
  }

  private refuse(req: IncomingMessage, res: ServerResponse, a: PlainAnswer): void {
    this.logRefusal(a, req.socket);
    writePlainAnswer(res, a);
  }

  /**
   * Every request enters here: first the checks Go's server makes before a handler runs (protocol
   * version, Host), then the handler chain.
   */
  private readonly serveRequest = (req: IncomingMessage, res: ServerResponse): void => {
    this.responses.track(req, res);
    if (this.cfg.servedBy) res.setHeader('X-Orch-Worker', this.cfg.servedBy);
    const refusal = protocolViolation(req, maxRequestHeadBytes);
    if (refusal) {
      this.refuse(req, res, refusal);
      return;
    }
    const target = classifyTarget(req.method ?? '', req.url ?? '');
    switch (target.kind) {
      case 'bad-request':
        this.refuse(req, res, { code: 400 });
        return;
      case 'options-asterisk':
        res.writeHead(200, { 'Content-Length': '0' });
        res.end();
        return;
      case 'not-found':
        writeStatusOnly(res, notFound());
        return;
      case 'route':
        req.url = target.url;
    }
    // Node's parser cannot report errors in the requests that follow one asking for an upgrade on the
    // same connection (it leaves them hanging), so such a request is answered and the connection closed.
    if (asksForUpgrade(req)) res.setHeader('Connection', 'close');
    this.app(req, res);
  };

  /** Starts listening (on `port`, default the configured one); resolves with the bound port. */
  async start(port = this.cfg.securePort): Promise<number> {
    const { cfg } = this;
    const server = createServer({
      cert: cfg.cert.cert,
      key: cfg.cert.key,
      minVersion: 'TLSv1.2',
      // Client certificates are asked for and checked by the authenticators, not by TLS: a request
      // without one (or with one of another CA) may still authenticate otherwise, or as anonymous.
      ...(cfg.clientCAs && cfg.clientCAs.length > 0 ? { requestCert: true, rejectUnauthorized: false, ca: cfg.clientCAs } : {}),
      maxHeaderSize: maxRequestHeadBytes,
      // Checked by protocolViolation, with Go's answer.
      requireHostHeader: false,
      ...bornForExpress(this.app),
    }, this.serveRequest);
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
    // Go keeps every header within the size limit; Node would silently drop those after the 2000th.
    server.maxHeadersCount = 0;
    const errors = clientErrors({
      maxHeaderSize: maxRequestHeadBytes,
      headersTimeoutMs: server.headersTimeout,
      lingerMs,
      responses: this.responses,
      serve: (head, socket) => serveDetached(this.serveRequest, requestFromHead(head, socket), socket, lingerMs),
      refused: (a, socket) => this.logRefusal(a, socket),
    });
    server.on('clientError', errors.onClientError);
    server.on('secureConnection', errors.watch);
    // Node hands a CONNECT's socket over for tunnelling and drops it when nobody takes it; Go serves it
    // as an ordinary request (404, or 405 on an API path).
    server.on('connect', (req: IncomingMessage, socket: Socket) => {
      void this.responses.idle(socket).then(() => serveDetached(this.serveRequest, dropBodyFraming(req), socket, lingerMs));
    });
    // A request asking for a protocol upgrade is served on its own connection: the handler chain runs
    // as for any request, and a CONNECT sub-resource may take the connection over for its backend.
    server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
      setUpgradeConnection(req, { socket, head });
      void this.responses.idle(socket).then(() => serveDetached(this.serveRequest, dropBodyFraming(req), socket, lingerMs));
    });
    server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    // Go's server logs each failed handshake; upstream moves that line to --v=5 (a scanner or a
    // client that distrusts the certificate makes many).
    server.on('tlsClientError', (err: Error, socket: Duplex) => cfg.logger.v(5).infoText(`http: TLS handshake error from ${remoteAddr(socket)}: ${err.message}`));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host: cfg.bindAddress, reusePort: cfg.reusePort === true }, () => resolve());
    });
    const addr = server.address();
    return typeof addr === 'object' && addr ? addr.port : port;
  }

  /**
   * Shuts down as upstream does: readyz fails at once, requests are still served for `delayMs`,
   * then the listener closes, watches end, and in-flight requests get `drainMs` to finish.
   */
  async shutdown(opts: ShutdownOptions): Promise<void> {
    const server = this.server;
    if (!server) return;
    const log = this.cfg.logger;
    this.cfg.lifecycle.beginShutdown();
    if (opts.delayMs > 0) {
      log.info('readyz now fails; still serving during the shutdown delay', { delay: `${opts.delayMs / 1000}s` });
      await new Promise((r) => setTimeout(r, opts.delayMs));
    }
    this.draining = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    log.info('stopped accepting connections; closing watches and draining in-flight requests', { watches: this.longRunning.size, inflight: this.inflight });
    for (const stop of [...this.longRunning]) stop();
    server.closeIdleConnections();
    const deadline = Date.now() + opts.drainMs;
    while (this.inflight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    if (this.inflight > 0) log.warn('drain period over; closing connections with requests still in flight', { inflight: this.inflight });
    server.closeIdleConnections();
    for (const s of this.sockets) s.destroy();
    await closed;
    this.server = undefined;
  }
}
