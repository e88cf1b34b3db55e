// What a request addresses, read off its path and method the way upstream's RequestInfoFactory
// does; authorization, routing and metrics all use it.
import { queryBool } from './query.js';

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection; for other paths the lower-cased method. */
  verb: string;
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  /** The path segments after the sub-resource, joined by '/' (a proxy's target path); '' when none. */
  subpath: string;
  name: string;
  /** Path segments after the version. */
  parts: string[];
  /** The query parameters, parsed once for every layer that reads them. */
  query: URLSearchParams;
}

/** Sub-resources of a namespace, which keep `namespaces/{name}/<sub>` from reading as a namespaced path. */
const namespaceSubresources = new Set(['status', 'finalize']);

/** Parses the method and URL (path and query) of a request. */
export function parseRequestInfo(method: string, rawURL: string): RequestInfo {
  const q = rawURL.indexOf('?');
  const path = q < 0 ? rawURL : rawURL.slice(0, q);
  // Read from the raw query as Go does (a `#` is part of it): resolving the target as a URL would
  // throw on targets such as `//[`, which are still valid request paths.
  const query = new URLSearchParams(q < 0 ? '' : rawURL.slice(q + 1));
  const info: RequestInfo = {
    isResourceRequest: false, path, verb: method.toLowerCase(), apiPrefix: '', apiGroup: '', apiVersion: '',
    namespace: '', resource: '', subresource: '', subpath: '', name: '', parts: [], query,
  };
  let segs = path.split('/').filter((s) => s !== '');
  let decoded: string[];
  try {
    decoded = segs.map((s) => decodeURIComponent(s));
  } catch {
    return info;
  }
  segs = decoded;
  if (segs.length < 1 || (segs[0] !== 'api' && segs[0] !== 'apis')) return info;
  info.apiPrefix = segs[0]!;
  let rest = segs.slice(1);
  if (info.apiPrefix === 'apis') {
    if (rest.length < 2) return info; // /apis and /apis/<group> are discovery
    info.apiGroup = rest[0]!;
    rest = rest.slice(1);
  } else if (rest.length < 1) {
    return info; // /api
  }
  info.apiVersion = rest[0]!;
  rest = rest.slice(1);
  if (rest.length === 0) return info; // /api/v1, /apis/<group>/<version>
  info.isResourceRequest = true;
  info.parts = rest;
  if (rest[0] === 'namespaces' && rest.length > 1) {
    info.namespace = rest[1]!;
    if (rest.length > 2 && !namespaceSubresources.has(rest[2]!)) rest = rest.slice(2);
  }
  info.resource = rest[0] ?? '';
  if (rest.length >= 2) info.name = rest[1]!;
  if (rest.length >= 3) info.subresource = rest[2]!;
  if (rest.length > 3) info.subpath = rest.slice(3).join('/');
  // The same conversion as every boolean query parameter: `watch=True` (python clients) and `watch=` watch.
  const watching = queryBool(query.getAll('watch'));
  switch (method.toUpperCase()) {
    case 'GET':
    case 'HEAD':
      info.verb = info.name ? (watching ? 'watch' : 'get') : watching ? 'watch' : 'list';
      break;
    case 'POST':
      info.verb = 'create';
      break;
    case 'PUT':
      info.verb = 'update';
      break;
    case 'PATCH':
      info.verb = 'patch';
      break;
    case 'DELETE':
      info.verb = info.name ? 'delete' : 'deletecollection';
      break;
    default:
      info.verb = method.toLowerCase();
  }
  return info;
}

/** Sub-resources whose requests stream for as long as the client wants (upstream's long-running check). */
const longRunningSubresources = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/** Whether a request is long-running: a watch or a streaming sub-resource, exempt from the request timeout and the in-flight limit. */
export function isLongRunning(info: RequestInfo): boolean {
  return info.verb === 'watch' || (info.isResourceRequest && longRunningSubresources.has(info.subresource));
}
