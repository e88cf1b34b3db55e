// The CONNECT sub-resources (pods/exec, attach, portforward, proxy; nodes/proxy; services/proxy), as
// upstream's connect handler serves them: the options are read off the query (and, for a proxy, the
// path below the sub-resource), admission sees them with operation CONNECT, the registry says where
// the request goes, and the request is proxied there — a plain request forwarded, an upgrade
// (the streams of exec, attach and port-forward) joined to the backend's connection.
import { newBadRequest, StatusError } from '../runtime/errors.js';
import { ProxyError, proxyRequest, proxyUpgrade } from '../util/proxy/upgrade-aware.js';
import { optionsFromQuery } from './query-options.js';
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

/** The query of a request target as the client wrote it, without the `?`. */
function rawQuery(url: string | undefined): string {
  const q = url?.indexOf('?') ?? -1;
  return q >= 0 ? url!.slice(q + 1) : '';
}

/** Serves one CONNECT request; `r.resource` is the options kind of the sub-resource. */
export async function serveConnect(ctx: HandlerContext, r: KindRequest, connecter: Connecter): Promise<void> {
  const { info, req, res } = r;
  const options = optionsFromQuery(r.resource.kind, r.resource.schema, info.query);
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
