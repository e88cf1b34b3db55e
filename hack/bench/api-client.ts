// The load tool's HTTPS client: node:https on one keep-alive Agent (maxSockets = the clients it
// serves), bodies as raw bytes, nothing parsed that the caller does not ask for. The project's test
// client is not used: its conveniences (parsing every body, per-request options) would be load-tool
// CPU counted against the server.
import https from 'node:https';
import type { Target } from './cluster.js';

export interface Response {
  status: number;
  body: Buffer;
}

export class ApiClient {
  private readonly agent: https.Agent;
  private readonly auth: string;

  constructor(private readonly target: Target, sockets: number) {
    this.agent = new https.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
    this.auth = `Bearer ${target.token}`;
  }

  request(method: string, path: string, body?: Buffer): Promise<Response> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { Authorization: this.auth, Accept: 'application/json' };
      if (body) {
        headers['Content-Type'] = 'application/json';
        headers['Content-Length'] = body.length;
      }
      const req = https.request({ host: this.target.host, port: this.target.port, ca: this.target.ca, agent: this.agent, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Like request, but a status other than 2xx breaks the run (figures of failed requests mean nothing). */
  async ok(method: string, path: string, body?: Buffer): Promise<Response> {
    const r = await this.request(method, path, body);
    if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path}: ${r.status} ${r.body.toString('utf8').slice(0, 500)}`);
    return r;
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const r = await this.ok(method, path, body === undefined ? undefined : Buffer.from(JSON.stringify(body)));
    return JSON.parse(r.body.toString('utf8')) as T;
  }

  /** The agent for callers that open their own long-lived requests (watches). */
  get httpsAgent(): https.Agent {
    return this.agent;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The yardstick object: a ConfigMap holding 1 KiB of data. `seq` varies the content of an update. */
export function configMap(namespace: string, name: string, seq = 0, resourceVersion?: string): Buffer {
  const payload = String(seq).padStart(1024, 'x');
  return Buffer.from(JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, ...(resourceVersion ? { resourceVersion } : {}) },
    data: { payload },
  }));
}

export function configMapsPath(namespace: string): string {
  return `/api/v1/namespaces/${namespace}/configmaps`;
}

/** metadata.resourceVersion of an object in a response body. */
export function resourceVersionOf(body: Buffer): string {
  const rv = (JSON.parse(body.toString('utf8')) as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
  if (!rv) throw new Error(`no metadata.resourceVersion in ${body.toString('utf8').slice(0, 200)}`);
  return rv;
}
