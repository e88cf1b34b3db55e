// A real extension API server for the aggregation tests, in the test process over HTTPS, shaped as
// metrics-server: it trusts the front proxy as upstream's delegated authentication does (a client
// certificate verified against the request-header CA published in the API server's
// extension-apiserver-authentication ConfigMap, with a common name among its allowed names, and the
// user read from the header names it publishes), authorizes each request by a SubjectAccessReview
// to the API server (delegated authorization, as metrics-server does), and serves
// metrics.<domain>/v1beta1 NodeMetrics and PodMetrics (get, list, watch), its discovery documents,
// OpenAPI v2 and v3, and one upgrade path that echoes bytes (a stand-in for exec-like streams).
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createTestCA, type TestCA } from '../../../pkg/authentication/testing/pki.js';
import { defaultAggregatorOptions, type AggregatorOptions } from '../../../cmd/apiserver/app/aggregator-options.js';
import type { AuthenticationOptions } from '../../../cmd/apiserver/app/authentication-options.js';
import type { TestServer } from './apiserver.js';
import { putLoopbackEndpoints } from './admission-webhook.js';
import { pollUntil } from './authentication.js';
import type { Client } from './client.js';

type Json = Record<string, unknown>;

/** The front-proxy trust an extension server reads from the extension-apiserver-authentication ConfigMap. */
export interface RequestHeaderTrust {
  clientCA: string;
  allowedNames: string[];
  usernameHeaders: string[];
  groupHeaders: string[];
  extraHeadersPrefix: string[];
}

/** Reads the trust from the ConfigMap's data, as k8s.io/apiserver's delegated authentication does. */
export function trustFromConfigMap(data: Record<string, string>): RequestHeaderTrust {
  const list = (k: string) => JSON.parse(data[k] ?? '[]') as string[];
  return {
    clientCA: data['requestheader-client-ca-file'] ?? '',
    allowedNames: list('requestheader-allowed-names'),
    usernameHeaders: list('requestheader-username-headers'),
    groupHeaders: list('requestheader-group-headers'),
    extraHeadersPrefix: list('requestheader-extra-headers-prefix'),
  };
}

/** The user a request came as, read off the front proxy's headers. */
export interface RemoteUser {
  name: string;
  groups: string[];
  extra: Record<string, string[]>;
}

export interface ReceivedRequest {
  method: string;
  url: string;
  /** The verified front-proxy certificate's common name. */
  clientCN: string;
  user: RemoteUser;
  /** Headers as received (the client's credentials must not be among them). */
  headers: IncomingMessage['headers'];
}

export interface Usage { cpu: string; memory: string }
export interface PodUsage { namespace: string; name: string; labels?: Record<string, string>; containers: { name: string; usage: Usage }[] }

export interface ExtensionAPIServer {
  readonly port: number;
  /** The CA of its serving certificate, base64 as an APIService's caBundle. */
  readonly caBundle: string;
  readonly ca: TestCA;
  /** Requests that passed authentication, in order. */
  readonly received: ReceivedRequest[];
  setNodeMetrics(name: string, usage: Usage): void;
  setPodMetrics(pod: PodUsage): void;
  /** Changes the description of one of its kinds (`NodeMetrics`, `PodMetrics`) in its OpenAPI v2 and v3 documents. */
  describeKind(kind: string, description: string): void;
  /** Stops serving (and closes open watches); a later request finds nothing listening. */
  close(): Promise<void>;
}

export interface ExtensionServerOptions {
  /** The group's domain: metrics.<domain>. */
  domain: string;
  trust: RequestHeaderTrust;
  /** The name its serving certificate is for: <service>.<namespace>.svc. */
  serviceDNSName: string;
  /** A client of the API server allowed to create SubjectAccessReviews. */
  reviewer: Client;
  /** The authorization group of the API server: authorization.<domain>. */
  authorizationGroup: string;
}

const unescapeKey = (k: string) => decodeURIComponent(k);
const asList = (v: string[] | undefined) => v ?? [];

/** The user of a request whose certificate the front proxy presented, per the trust's header names. */
function remoteUser(headers: IncomingMessage['headersDistinct'], trust: RequestHeaderTrust): RemoteUser | undefined {
  const name = trust.usernameHeaders.map((h) => asList(headers[h.toLowerCase()])[0]).find((v) => v);
  if (!name) return undefined;
  const groups = trust.groupHeaders.flatMap((h) => asList(headers[h.toLowerCase()]));
  const extra: Record<string, string[]> = {};
  for (const prefix of trust.extraHeadersPrefix.map((p) => p.toLowerCase())) {
    for (const [h, v] of Object.entries(headers)) {
      if (!h.startsWith(prefix)) continue;
      const key = unescapeKey(h.slice(prefix.length)).toLowerCase();
      (extra[key] ??= []).push(...asList(v));
    }
  }
  return { name, groups, extra };
}

function send(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

const status = (code: number, reason: string, message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

/** Starts the server on 127.0.0.1 with a serving certificate of a new CA for `serviceDNSName`. */
export async function startExtensionAPIServer(o: ExtensionServerOptions): Promise<ExtensionAPIServer> {
  const group = `metrics.${o.domain}`;
  const gv = `${group}/v1beta1`;
  const base = `/apis/${gv}`;
  const ca = createTestCA('extension-apiserver-ca');
  const serving = ca.issue({ commonName: o.serviceDNSName, hosts: [o.serviceDNSName, '127.0.0.1'], usages: ['serverAuth'] });
  const received: ReceivedRequest[] = [];
  const nodes = new Map<string, Json>();
  const pods = new Map<string, Json>();
  const watchers = new Set<{ kind: 'nodes' | 'pods'; namespace: string; res: ServerResponse }>();
  const stamp = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  let rv = 1;

  const nodeMetrics = (name: string, usage: Usage): Json => ({
    kind: 'NodeMetrics', apiVersion: gv, metadata: { name, resourceVersion: String(rv), creationTimestamp: stamp() }, timestamp: stamp(), window: '10.5s', usage,
  });
  const podMetrics = (p: PodUsage): Json => ({
    kind: 'PodMetrics', apiVersion: gv, metadata: { name: p.name, namespace: p.namespace, labels: p.labels ?? {}, resourceVersion: String(rv), creationTimestamp: stamp() }, timestamp: stamp(), window: '10.5s', containers: p.containers,
  });
  const notify = (kind: 'nodes' | 'pods', namespace: string, type: string, object: Json) => {
    for (const w of watchers) {
      if (w.kind === kind && (w.namespace === '' || w.namespace === namespace)) w.res.write(`${JSON.stringify({ type, object })}\n`);
    }
  };

  const resources = [
    { name: 'nodes', singularName: '', namespaced: false, kind: 'NodeMetrics', verbs: ['get', 'list', 'watch'] },
    { name: 'pods', singularName: '', namespaced: true, kind: 'PodMetrics', verbs: ['get', 'list', 'watch'] },
  ];
  const definitions = openAPIDefinitions(o.domain);
  const v2 = {
    swagger: '2.0', info: { title: 'metrics-server', version: 'v0.0.1' },
    paths: {
      [`${base}/nodes`]: { get: { operationId: 'listMetricsV1beta1NodeMetrics', responses: { 200: { description: 'OK', schema: { $ref: `#/definitions/${defName(o.domain, 'NodeMetricsList')}` } } } } },
      [`${base}/namespaces/{namespace}/pods`]: { get: { operationId: 'listMetricsV1beta1NamespacedPodMetrics', responses: { 200: { description: 'OK', schema: { $ref: `#/definitions/${defName(o.domain, 'PodMetricsList')}` } } } } },
    },
    definitions,
  };
  const v3 = {
    openapi: '3.0.0', info: { title: 'metrics-server', version: 'v0.0.1' },
    paths: { [`${base}/nodes`]: { get: { operationId: 'listMetricsV1beta1NodeMetrics', responses: { 200: { description: 'OK' } } } } },
    components: { schemas: definitions },
  };
  const hashOf = () => createHash('sha512').update(JSON.stringify(v3)).digest('hex').toUpperCase();
  let v3Hash = hashOf();

  /** Delegated authorization: a SubjectAccessReview of the user's request to the API server. */
  const authorize = async (user: RemoteUser, verb: string, resource: string, namespace: string, name: string): Promise<boolean> => {
    const r = await o.reviewer.post(`/apis/${o.authorizationGroup}/v1/subjectaccessreviews`, {
      spec: { user: user.name, groups: user.groups, extra: user.extra, resourceAttributes: { group, version: 'v1beta1', resource, verb, namespace, name } },
    });
    return r.status === 201 && r.body?.status?.allowed === true;
  };

  const serveAPI = async (req: IncomingMessage, res: ServerResponse, user: RemoteUser) => {
    const url = new URL(req.url ?? '/', 'https://x');
    const path = url.pathname.replace(/\/+$/, '');
    if (path === '/apis') return send(res, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [{ name: group, versions: [{ groupVersion: gv, version: 'v1beta1' }], preferredVersion: { groupVersion: gv, version: 'v1beta1' } }] });
    if (path === `/apis/${group}`) return send(res, 200, { kind: 'APIGroup', apiVersion: 'v1', name: group, versions: [{ groupVersion: gv, version: 'v1beta1' }], preferredVersion: { groupVersion: gv, version: 'v1beta1' } });
    if (path === base) return send(res, 200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gv, resources });
    if (path === '/openapi/v2') return send(res, 200, v2);
    if (path === '/openapi/v3') return send(res, 200, { paths: { [`apis/${gv}`]: { serverRelativeURL: `/openapi/v3/apis/${gv}?hash=${v3Hash}` } } });
    if (path === `/openapi/v3/apis/${gv}`) return send(res, 200, v3);
    const m = /^\/apis\/[^/]+\/v1beta1\/(?:namespaces\/([^/]+)\/)?(nodes|pods)(?:\/([^/]+))?$/.exec(path);
    if (!m) return send(res, 404, status(404, 'NotFound', 'the server could not find the requested resource'));
    const [, namespace = '', kind, name = ''] = m as unknown as [string, string | undefined, 'nodes' | 'pods', string | undefined];
    const watch = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
    const verb = watch ? 'watch' : name ? 'get' : 'list';
    if (!(await authorize(user, verb, kind, namespace, name))) {
      return send(res, 403, status(403, 'Forbidden', `${kind}.${group}${name ? ` "${name}"` : ''} is forbidden: User "${user.name}" cannot ${verb} resource "${kind}" in API group "${group}"${namespace ? ` in the namespace "${namespace}"` : ' at the cluster scope'}`));
    }
    // Equality label selectors (`k=v,...`), which is what the autoscaler sends.
    const wanted = (url.searchParams.get('labelSelector') ?? '').split(',').filter(Boolean).map((r) => r.split('='));
    const matches = (x: Json) => wanted.every(([k, v]) => ((x.metadata as Json).labels as Record<string, string> | undefined)?.[k!] === v);
    const items = [...(kind === 'nodes' ? nodes : pods).values()].filter((x) => (!namespace || (x.metadata as Json).namespace === namespace) && matches(x));
    if (watch) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
      const w = { kind, namespace, res };
      watchers.add(w);
      for (const item of items) res.write(`${JSON.stringify({ type: 'ADDED', object: item })}\n`);
      res.on('close', () => watchers.delete(w));
      return undefined;
    }
    if (name) {
      const item = items.find((x) => (x.metadata as Json).name === name);
      return item ? send(res, 200, item) : send(res, 404, status(404, 'NotFound', `${kind}.${group} "${name}" not found`));
    }
    return send(res, 200, { kind: kind === 'nodes' ? 'NodeMetricsList' : 'PodMetricsList', apiVersion: gv, metadata: { resourceVersion: String(rv) }, items });
  };

  /** The user, when the request carries a front-proxy certificate this server trusts. */
  const authenticate = (req: IncomingMessage): { user: RemoteUser; cn: string } | undefined => {
    const socket = req.socket as TLSSocket;
    if (!socket.authorized) return undefined;
    const cn = String(socket.getPeerCertificate()?.subject?.CN ?? '');
    if (o.trust.allowedNames.length > 0 && !o.trust.allowedNames.includes(cn)) return undefined;
    const user = remoteUser(req.headersDistinct, o.trust);
    return user ? { user, cn } : undefined;
  };

  const server: Server = createServer({ cert: serving.cert, key: serving.key, ca: o.trust.clientCA, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const who = authenticate(req);
    if (!who) return send(res, 401, status(401, 'Unauthorized', 'Unauthorized'));
    received.push({ method: req.method ?? '', url: req.url ?? '', clientCN: who.cn, user: who.user, headers: req.headers });
    serveAPI(req, res, who.user).catch((e: unknown) => send(res, 500, status(500, 'InternalError', String(e))));
  });
  // An upgrade below the group version (an exec-like stream): switched protocols, then every byte echoed.
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    const who = authenticate(req);
    if (!who) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    received.push({ method: req.method ?? '', url: req.url ?? '', clientCN: who.cn, user: who.user, headers: req.headers });
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${String(req.headers.upgrade)}\r\n\r\n`);
    socket.pipe(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    port,
    ca,
    caBundle: Buffer.from(ca.cert).toString('base64'),
    received,
    setNodeMetrics(name, usage) {
      rv++;
      const type = nodes.has(name) ? 'MODIFIED' : 'ADDED';
      const obj = nodeMetrics(name, usage);
      nodes.set(name, obj);
      notify('nodes', '', type, obj);
    },
    setPodMetrics(p) {
      rv++;
      const key = `${p.namespace}/${p.name}`;
      const type = pods.has(key) ? 'MODIFIED' : 'ADDED';
      const obj = podMetrics(p);
      pods.set(key, obj);
      notify('pods', p.namespace, type, obj);
    },
    describeKind(kind, description) {
      (definitions[defName(o.domain, kind)] as Json).description = description;
      v3Hash = hashOf();
    },
    async close() {
      for (const w of watchers) w.res.end();
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

const defName = (domain: string, kind: string) => `${domain.split('.').reverse().join('.')}.metrics.pkg.apis.metrics.v1beta1.${kind}`;

/** NodeMetrics, PodMetrics and their lists, as metrics-server publishes them (reduced). */
function openAPIDefinitions(domain: string): Json {
  const usage = { type: 'object', additionalProperties: { type: 'string' }, description: 'The memory and CPU usage.' };
  const meta = { type: 'object', description: 'Standard object metadata.' };
  return {
    [defName(domain, 'NodeMetrics')]: { type: 'object', description: 'NodeMetrics sets resource usage metrics of a node.', properties: { metadata: meta, timestamp: { type: 'string' }, window: { type: 'string' }, usage } },
    [defName(domain, 'NodeMetricsList')]: { type: 'object', description: 'NodeMetricsList is a list of NodeMetrics.', properties: { items: { type: 'array', items: { $ref: `#/definitions/${defName(domain, 'NodeMetrics')}` } } } },
    [defName(domain, 'PodMetrics')]: { type: 'object', description: 'PodMetrics sets resource usage metrics of a pod.', properties: { metadata: meta, timestamp: { type: 'string' }, window: { type: 'string' }, containers: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, usage } } } } },
    [defName(domain, 'PodMetricsList')]: { type: 'object', description: 'PodMetricsList is a list of PodMetrics.', properties: { items: { type: 'array', items: { $ref: `#/definitions/${defName(domain, 'PodMetrics')}` } } } },
  };
}

/**
 * What a test server needs to front extension servers: a front-proxy CA trusted for request
 * headers (X-Remote-*, allowed name front-proxy-client) and the client certificate it signs, with
 * the aggregator checking and fetching every half second.
 */
export function frontProxyOptions(files: { write(name: string, content: string): string }): { requestHeader: AuthenticationOptions['requestHeader']; aggregator: AggregatorOptions; ca: TestCA } {
  const ca = createTestCA('front-proxy-ca');
  const client = ca.issue({ commonName: 'front-proxy-client', usages: ['clientAuth'] });
  return {
    ca,
    requestHeader: {
      clientCAFile: files.write('front-proxy-ca.crt', ca.cert), allowedNames: ['front-proxy-client'],
      usernameHeaders: ['X-Remote-User'], groupHeaders: ['X-Remote-Group'], extraHeadersPrefix: ['X-Remote-Extra-'],
    },
    aggregator: {
      ...defaultAggregatorOptions(), availabilityIntervalMs: 500, documentsIntervalMs: 500,
      proxyClientCertFile: files.write('proxy-client.crt', client.cert), proxyClientKeyFile: files.write('proxy-client.key', client.key),
    },
  };
}

/** The trust a test server publishes in its extension-apiserver-authentication ConfigMap, once it is there. */
export async function publishedTrust(admin: Client, systemNamespace: string): Promise<RequestHeaderTrust> {
  const cm = await pollUntil(() => admin.get(`/api/v1/namespaces/${systemNamespace}/configmaps/extension-apiserver-authentication`), (r) => r.status === 200, 'the authentication ConfigMap');
  return trustFromConfigMap(cm.body.data);
}

/**
 * Serves `ext` as metrics.<domain>/v1beta1 through the Service `metrics-server` in `namespace`
 * (its Endpoints at the server's loopback port, written to etcd as validation refuses loopback)
 * and an APIService, and waits until the APIService is Available.
 */
export async function registerMetricsServer(t: TestServer, admin: Client, ext: ExtensionAPIServer, domain: string, namespace: string): Promise<void> {
  const svc = await admin.post(`/api/v1/namespaces/${namespace}/services`, { metadata: { name: 'metrics-server' }, spec: { ports: [{ name: 'https', port: 443, targetPort: 4443 }] } });
  if (svc.status !== 201) throw new Error(`cannot create the metrics-server Service: ${svc.text}`);
  await putLoopbackEndpoints(t.etcd.endpoint, namespace, 'metrics-server', 'https', ext.port);
  const apiservices = `/apis/apiregistration.${domain}/v1/apiservices`;
  const name = `v1beta1.metrics.${domain}`;
  const created = await admin.post(apiservices, {
    metadata: { name },
    spec: { group: `metrics.${domain}`, version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 100, caBundle: ext.caBundle, service: { namespace, name: 'metrics-server' } },
  });
  if (created.status !== 201) throw new Error(`cannot create the APIService: ${created.text}`);
  await pollUntil(() => admin.get(`${apiservices}/${name}`),
    (r) => (r.body?.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Available' && c.status === 'True'), `${name} Available`, 20_000);
}
