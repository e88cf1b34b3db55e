// Routes API requests (discovery and resources) from the scheme: a path is served exactly when
// the scheme says the group, version, resource and sub-resource exist.
import type { Request, Response } from 'express';
import type { Subresource } from '../../api/registration.js';
import { newBadRequest, StatusError } from '../runtime/errors.js';
import { storeKey, type ResourceInfo, type Scheme } from '../runtime/scheme.js';
import type { Store } from '../registry/generic/store.js';
import { apiGroupDocument, apiGroupList, apiResourceListDocument, apiVersions } from './discovery.js';
import type { DiscoveryModel } from './discovery-model.js';
import { aggregatedDocument, type DiscoveryRoot } from './aggregated-discovery.js';
import { negotiateOutput, type Conversion, type MediaFormat } from './negotiation.js';
import { ResponseWriter } from './output.js';
import { Query } from './query.js';
import { isLongRunning, type RequestInfo } from './request-info.js';
import { connectMethodAllowed, serveConnect } from './connect.js';
import type { Connecter } from '../registry/rest/connect.js';
import type { StreamGetter } from '../registry/rest/stream.js';
import { serveStream } from './stream.js';
import {
  createResource,
  deleteCollection,
  deleteResource,
  getResource,
  getScaleResource,
  listResource,
  patchScaleResource,
  patchResource,
  updateResource,
  updateScaleResource,
  createVirtual,
  type HandlerContext,
  type VirtualHandler,
  type ResourceRequest,
} from './resource-handlers.js';
import { requestDeadline, runWithDeadline } from './request-timeout.js';
import { addWarnings, setStatusWriter } from './responses.js';
import type { IncludeObject } from '../registry/table.js';
import { serveWatch, type WatchServerOptions } from './watch.js';

export interface APIHandlerConfig extends HandlerContext {
  scheme: Scheme;
  /** What discovery shows: the scheme's groups and whatever other sources feed it. */
  discovery: DiscoveryModel;
  /** The store of each resource, keyed `<group>/<resource>`. */
  stores: ReadonlyMap<string, Store>;
  /**
   * Custom resources, registered while the server runs: the store of each one the scheme holds,
   * and a way to catch up with the other threads when a request names a resource or group this
   * server does not know yet (a CustomResourceDefinition another thread saw established a moment ago).
   */
  custom?: CustomResourceStores;
  watch: WatchServerOptions;
  /** host:port clients reach this server at, for /api. */
  serverAddress: string;
  /**
   * Handlers of the virtual kinds, keyed `<group>/<resource>`, and of sub-resources speaking their
   * own kind, keyed `<group>/<resource>/<sub-resource>`; a kind without one is not served.
   */
  virtual?: ReadonlyMap<string, VirtualHandler>;
  /** The registry's half of each CONNECT sub-resource, keyed `<group>/<resource>/<sub-resource>`. */
  connecters?: ReadonlyMap<string, Connecter>;
  /** The registry's half of each streamed read (pods/log), keyed `<group>/<resource>/<sub-resource>`. */
  streams?: ReadonlyMap<string, StreamGetter>;
  /** --request-timeout: the most a request that is not long-running may take; default upstream's 60 s. */
  requestTimeoutMs?: number;
}

/** The stores of the custom resources, kept by pkg/apiextensions. */
export interface CustomResourceStores {
  store(resource: ResourceInfo): Store | undefined;
  /**
   * Resolves once this server serves the CustomResourceDefinitions as far as any thread of the
   * process has seen them, without reading etcd; the request that asked is then routed again.
   * Called for /apis and for paths below /apis this server does not serve.
   */
  converged(): Promise<void>;
}

const notFound = () => new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});

/** The formats a verb's answer may take; custom resources and CustomResourceDefinitions have no protobuf form. */
function outputFormats(verb: string, protobuf: boolean): { formats: MediaFormat[]; conversions: Conversion[] } {
  const withProtobuf = (f: MediaFormat[]): MediaFormat[] => (protobuf ? f : f.filter((x) => x !== 'protobuf'));
  switch (verb) {
    case 'watch': return { formats: withProtobuf(['json', 'protobuf']), conversions: ['Table', 'PartialObjectMetadata'] };
    case 'list': return { formats: withProtobuf(['json', 'yaml', 'protobuf']), conversions: ['Table', 'PartialObjectMetadataList'] };
    case 'get': return { formats: withProtobuf(['json', 'yaml', 'protobuf']), conversions: ['Table', 'PartialObjectMetadata'] };
    default: return { formats: withProtobuf(['json', 'yaml', 'protobuf']), conversions: [] };
  }
}

/** Upstream's answer to a write of a new object while its CustomResourceDefinition is being deleted. */
function terminating(resource: ResourceInfo, verb: string): StatusError {
  return new StatusError(405, 'MethodNotAllowed', `${verb} not allowed while custom resource definition is terminating`, {
    group: resource.group, kind: resource.resource,
  });
}

/**
 * Upstream registers a route per supported verb; any other method on a resource path (HEAD, OPTIONS,
 * CONNECT, POST on an item, ...) finds no route and gets go-restful's 405 as a generic Status.
 */
const methodNotAllowed = () => new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
const routedMethods = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

export type APIHandler = (req: Request, res: Response, info: RequestInfo) => Promise<void>;

export function newAPIHandler(cfg: APIHandlerConfig): APIHandler {
  const serve = serveAPI(cfg);
  // Every request but a watch runs under a deadline, as upstream's timeout filter runs it.
  return async (req, res, info) => {
    if (isLongRunning(info)) return serve(req, res, info);
    const deadline = requestDeadline(info, cfg.requestTimeoutMs);
    return runWithDeadline(deadline, res, () => serve(req, res, info), {
      timedOut: () => cfg.logger?.warn('request did not complete within the allotted timeout', { method: req.method, path: info.path, timeout: `${deadline.ms}ms` }),
      // What the work did after its 504: stopped as told, failed, or finished with its answer dropped.
      late: ({ elapsedMs, cancelled, error }) => cfg.logger?.warn('post-timeout activity', {
        method: req.method, path: info.path, timeElapsed: `${elapsedMs}ms`,
        result: cancelled ? 'cancelled' : error === undefined ? 'finished, its answer dropped' : error instanceof Error ? error.message : String(error),
      }),
    });
  };
}

function serveAPI(cfg: APIHandlerConfig): APIHandler {
  const serve = serveResolved(cfg);
  return async (req, res, info) => {
    try {
      await serve(req, res, info);
    } catch (e) {
      // A path below /apis this server does not serve may be a custom resource another thread
      // just registered: catch up with the threads (from memory) and route once more before answering 404.
      if (!(e instanceof NotServed)) throw e;
      if (!cfg.custom || !info.path.startsWith('/apis/')) throw e.cause;
      await cfg.custom.converged();
      try {
        await serve(req, res, info);
      } catch (again) {
        throw again instanceof NotServed ? again.cause : again;
      }
    }
  };
}

/** A 404 for a path the scheme does not serve (as opposed to a missing object). */
class NotServed extends Error {
  constructor(override readonly cause: StatusError) {
    super(cause.message);
  }
}

const notServed = () => new NotServed(notFound());

function serveResolved(cfg: APIHandlerConfig): APIHandler {
  return async (req, res, info) => {
    const query = new Query(info.query);
    const domain = cfg.scheme.domain;
    const negotiate = (formats: readonly MediaFormat[], conversions: readonly Conversion[], aggregatedDiscovery = false) => {
      const target = negotiateOutput(req.headers.accept, { formats, conversions, domain, aggregatedDiscovery });
      const out = new ResponseWriter(res, target, query.pretty(), cfg.protobuf, domain, includeObject(query));
      setStatusWriter(res, (code, status) => out.status(code, status));
      return out;
    };
    if (!info.isResourceRequest) {
      const root = discoveryRoot(info.path);
      const out = negotiate(['json', 'yaml'], [], root !== undefined);
      // The list of groups is the same whichever thread answers.
      if (cfg.custom && root === 'apis') await cfg.custom.converged();
      const doc = discovery(cfg, info);
      if (!doc) throw notServed();
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new StatusError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`);
      if (root && out.target.aggregatedDiscovery) return out.aggregatedDiscovery(aggregatedDocument(cfg.discovery, root, domain), req.headers['if-none-match']);
      out.document(200, doc);
      return;
    }
    // Errors are written as JSON until the response's format is known; then in that format.
    const outputs = outputFormats(info.verb, true);
    let out = negotiate(outputs.formats, outputs.conversions);
    if (!cfg.scheme.groupVersion(info.apiGroup, info.apiVersion)) throw notServed();
    const resource = cfg.scheme.resource(info.apiGroup, info.apiVersion, info.resource);
    if (!resource) throw notServed();
    if (!resource.protobuf) {
      const json = outputFormats(info.verb, false);
      out = negotiate(json.formats, json.conversions);
    }
    if (resource.virtual) {
      const handler = cfg.virtual?.get(`${resource.group}/${resource.resource}`);
      // A namespaced review (LocalSubjectAccessReview) is only served below its namespace.
      const namespacedPath = info.parts[0] === 'namespaces';
      if (!handler || namespacedPath !== resource.namespaced || info.name) throw notFound();
      if (info.verb !== 'create') throw methodNotAllowed();
      return createVirtual(cfg, { req, res, info, resource, query, out }, handler);
    }
    const store = resource.custom ? cfg.custom?.store(resource) : cfg.stores.get(storeKey(resource));
    if (!store) throw notFound();
    const namespacedPath = info.parts[0] === 'namespaces' && info.resource !== 'namespaces';
    if (resource.namespaced) {
      if (info.name && !namespacedPath) throw notFound();
    } else {
      if (namespacedPath) throw notFound();
      info.namespace = '';
    }
    if (info.subresource && !resource.subresources.some((s) => s === info.subresource)) throw notFound();
    if (resource.custom) {
      if (resource.custom.warnings.length > 0) addWarnings(res, resource.custom.warnings);
      // Objects of a definition being deleted may be read and deleted, not created.
      if (resource.custom.terminating && info.verb === 'create') throw terminating(resource, info.verb);
    }
    // A sub-resource that answers a request of its own kind (serviceaccounts/token: TokenRequest).
    const subKind = info.subresource ? resource.subresourceKinds[info.subresource as Subresource] : undefined;
    // Only a proxy has a path below its sub-resource.
    if (info.subpath && !(subKind?.connect && info.subresource === 'proxy')) throw notFound();
    if (subKind?.connect) {
      const connecter = cfg.connecters?.get(`${resource.group}/${resource.resource}/${info.subresource}`);
      if (!connecter) throw notFound();
      if (!connectMethodAllowed(info.subresource, req.method)) throw methodNotAllowed();
      return serveConnect(cfg, { req, res, info, resource: subKind, query, out }, connecter);
    }
    if (subKind?.streamed) {
      const getter = cfg.streams?.get(`${resource.group}/${resource.resource}/${info.subresource}`);
      if (!getter) throw notFound();
      if (req.method !== 'GET') throw methodNotAllowed();
      return serveStream({ req, res, info, resource: subKind, query, out }, getter, cfg.watch.track);
    }
    const r: ResourceRequest = { req, res, info, resource, store, query, out };
    const unsupported = methodNotAllowed;
    if (!routedMethods.has(req.method)) throw unsupported();
    if (!info.subresource && !resource.verbs.includes(info.verb)) throw unsupported();
    if (info.subresource === 'finalize') {
      if (info.verb !== 'update') throw unsupported();
      return updateResource(cfg, r);
    }
    if (subKind?.verbs.includes('create')) {
      const handler = cfg.virtual?.get(`${resource.group}/${resource.resource}/${info.subresource}`);
      if (!handler) throw notFound();
      if (info.verb !== 'create') throw unsupported();
      return createVirtual(cfg, { req, res, info, resource: subKind, query, out }, handler, store);
    }
    if (info.subresource === 'scale') {
      switch (info.verb) {
        case 'get': return getScaleResource(r);
        case 'update': return updateScaleResource(cfg, r);
        case 'patch': return patchScaleResource(cfg, r);
        default: throw unsupported();
      }
    }
    if (info.subresource) {
      switch (info.verb) {
        case 'get': return getResource(r);
        case 'update': return updateResource(cfg, r);
        case 'patch': return patchResource(cfg, r);
        default: throw unsupported();
      }
    }
    if (info.name) {
      switch (info.verb) {
        case 'get': return getResource(r);
        case 'watch': return serveWatch(r, cfg.watch);
        case 'update': return updateResource(cfg, r);
        case 'patch': return patchResource(cfg, r);
        case 'delete': return deleteResource(cfg, r);
        default: throw unsupported();
      }
    }
    switch (info.verb) {
      case 'list': return listResource(r);
      case 'watch': return serveWatch(r, cfg.watch);
      case 'create':
        if (resource.namespaced && !namespacedPath) throw unsupported();
        return createResource(cfg, r);
      case 'deletecollection':
        if (resource.namespaced && !namespacedPath) throw unsupported();
        return deleteCollection(cfg, r);
      default: throw unsupported();
    }
  };
}

const includeObjectValues: readonly IncludeObject[] = ['None', 'Metadata', 'Object'];

/** `includeObject` of Table requests: None, Metadata (the default) or Object. */
function includeObject(q: Query): IncludeObject {
  const v = q.str('includeObject');
  if (v === undefined || v === '') return 'Metadata';
  const found = includeObjectValues.find((x) => x === v);
  if (!found) throw newBadRequest(`includeObject: Unsupported value: ${JSON.stringify(v)}: supported values: "None", "Metadata", "Object"`);
  return found;
}

/** Which aggregated document a path may be answered with: /api's, /apis', or none. */
function discoveryRoot(path: string): DiscoveryRoot | undefined {
  const p = path.replace(/\/+$/, '');
  return p === '/api' ? 'api' : p === '/apis' ? 'apis' : undefined;
}

function discovery(cfg: APIHandlerConfig, info: RequestInfo): unknown {
  const segs = info.path.split('/').filter(Boolean);
  const model = cfg.discovery;
  if (segs[0] === 'api') {
    if (segs.length === 1) return apiVersions(model, cfg.serverAddress);
    const gv = segs.length === 2 ? model.groupVersion('', segs[1]!) : undefined;
    return gv ? apiResourceListDocument(gv) : undefined;
  }
  if (segs[0] === 'apis') {
    if (segs.length === 1) return apiGroupList(model);
    if (segs.length === 2) return apiGroupDocument(model, segs[1]!);
    const gv = segs.length === 3 && segs[1] ? model.groupVersion(segs[1], segs[2]!) : undefined;
    return gv ? apiResourceListDocument(gv) : undefined;
  }
  return undefined;
}
