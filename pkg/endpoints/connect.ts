// The CONNECT sub-resources (pods/exec, attach, portforward, proxy; nodes/proxy; services/proxy), as
// upstream's connect handler serves them: the options are read off the query (and, for a proxy, the
// path below the sub-resource), admission sees them with operation CONNECT, the registry says where
// the request goes, and the request is proxied there — a plain request forwarded, an upgrade
// (the streams of exec, attach and port-forward) joined to the backend's connection.
import type { TObject, TSchema } from '@sinclair/typebox';
import type { AdmissionObject } from '../admission/interfaces.js';
import { newBadRequest, StatusError } from '../runtime/errors.js';
import { ProxyError, proxyRequest, proxyUpgrade } from '../util/proxy/upgrade-aware.js';
import { parseGoInt, queryBool } from './query.js';
import { admitConnect, type HandlerContext, type KindRequest } from './resource-handlers.js';
import { takeUpgradeConnection } from './upgrade.js';
import type { Connecter } from '../registry/rest/connect.js';

/** The methods each CONNECT sub-resource answers, as upstream registers its routes. */
const connectMethods: Record<string, readonly string[]> = {
  exec: ['GET', 'POST'],
  attach: ['GET', 'POST'],
  portforward: ['GET', 'POST'],
  proxy: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
};

export function connectMethodAllowed(subresource: string, method: string): boolean {
  return connectMethods[subresource]?.includes(method) ?? false;
}

/** An int32 option (PodPortForwardOptions.ports) as upstream's parameter codec reads it. */
const int32Param = (v: string) => parseGoInt(v, -(2n ** 31n), 2n ** 31n - 1n);

/** Reads the option kind's fields off the query, each converted by its schema type. */
export function connectOptions(kind: string, schema: TObject, query: URLSearchParams): AdmissionObject {
  const out: AdmissionObject = { kind, apiVersion: 'v1' };
  for (const [name, prop] of Object.entries(schema.properties as Record<string, TSchema>)) {
    if (name === 'kind' || name === 'apiVersion') continue;
    const values = query.getAll(name);
    switch (prop.type) {
      case 'boolean':
        if (queryBool(values)) out[name] = true;
        break;
      case 'string':
        if (values.length > 0 && values[0] !== '') out[name] = values[0];
        break;
      case 'array':
        if (values.length > 0) out[name] = (prop.items as TSchema).type === 'integer' ? values.map(int32Param) : values;
        break;
    }
  }
  return out;
}

/** The query of a request target as the client wrote it, without the `?`. */
function rawQuery(url: string | undefined): string {
  const q = url?.indexOf('?') ?? -1;
  return q >= 0 ? url!.slice(q + 1) : '';
}

/** Serves one CONNECT request; `r.resource` is the options kind of the sub-resource. */
export async function serveConnect(ctx: HandlerContext, r: KindRequest, connecter: Connecter): Promise<void> {
  const { info, req, res } = r;
  const options = connectOptions(r.resource.kind, r.resource.schema, info.query);
  if (info.subresource === 'proxy') {
    // The path below `proxy/` is the proxied path; a trailing slash is kept, as upstream keeps it.
    const sub = info.subpath + (info.subpath && info.path.endsWith('/') ? '/' : '');
    if (sub) options.path = sub;
  }
  const upgrade = takeUpgradeConnection(req);
  try {
    const admitted = await admitConnect(ctx, r, options);
    const target = await connecter({ namespace: info.namespace, name: info.name, options: admitted });
    // A proxy passes the client's query on; a stream's location carries its own.
    if (info.subresource === 'proxy') target.url.search = rawQuery(req.url);
    if (upgrade) {
      await proxyUpgrade(req, upgrade.socket, upgrade.head, target);
      return;
    }
    if (target.upgradeRequired) throw newBadRequest('Upgrade request required');
    // An empty proxied path is redirected to `<path>/`, as upstream does for GET and HEAD.
    if (info.subresource === 'proxy' && !options.path && (req.method === 'GET' || req.method === 'HEAD') && !info.path.endsWith('/')) {
      const q = rawQuery(req.url);
      res.writeHead(301, { Location: `${info.path}/${q ? `?${q}` : ''}` });
      res.end();
      return;
    }
    await proxyRequest(req, Buffer.isBuffer(req.body) ? req.body : undefined, res, target);
  } catch (err) {
    // Upstream's responder answers a failure to reach the backend as an internal error.
    if (err instanceof ProxyError) throw new StatusError(500, '', err.message);
    throw err;
  }
}
