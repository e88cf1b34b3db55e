// The client of one resource (group, version, plural), optionally in one namespace: every verb the
// server serves, its status and other sub-resources, in the client's wire format. `T` is the
// object's shape as the caller knows it; the server's answer is trusted to be of that kind.
import type { ObjectMeta, Status } from '../../api/meta/v1/types.js';
import type { ResourceInfo } from '../runtime/scheme.js';
import type { Json } from './codec.js';
import {
  deleteBody, listQuery, patchContentTypes, query, writeQuery,
  type DeleteOptions, type ListOptions, type PatchOptions, type PatchType, type WatchOptions, type WriteOptions,
} from './options.js';
import type { Requester } from './requester.js';
import type { Watch } from './watch.js';

/** Any object of the API: metadata and the kind's own fields. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface ObjectList<T> {
  apiVersion?: string;
  kind?: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

/** What names a resource: its group ('' for core), version and plural. */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

export class ResourceClient<T extends KubeObject = KubeObject> {
  constructor(
    private readonly requester: Requester,
    readonly gvr: GroupVersionResource,
    /** The scheme's account of the resource; undefined for one it does not know (spoken in JSON). */
    readonly info: ResourceInfo | undefined,
    /** The namespace; '' for all namespaces (lists, watches) or a cluster-scoped resource. */
    readonly ns: string = '',
  ) {}

  /** The same resource in namespace `ns` (for a namespaced resource). */
  namespace(ns: string): ResourceClient<T> {
    if (this.info && !this.info.namespaced) throw new Error(`${this.gvr.resource} is not namespaced`);
    return new ResourceClient<T>(this.requester, this.gvr, this.info, ns);
  }

  private apiVersion(): string {
    return this.gvr.group ? `${this.gvr.group}/${this.gvr.version}` : this.gvr.version;
  }

  /** The collection path in namespace `ns` ('' for all or none), then the name and sub-resource. */
  path(ns: string, name?: string, subresource?: string): string {
    const base = this.gvr.group ? `/apis/${this.gvr.group}/${this.gvr.version}` : `/api/${this.gvr.version}`;
    let p = ns ? `${base}/namespaces/${encodeURIComponent(ns)}/${this.gvr.resource}` : `${base}/${this.gvr.resource}`;
    if (name !== undefined) {
      if (!name) throw new Error('a resource name may not be empty');
      p += `/${encodeURIComponent(name)}`;
    }
    if (subresource) p += `/${subresource}`;
    return p;
  }

  /** The namespace of a write: the client's, else the object's own. */
  private nsOf(obj: KubeObject): string {
    return this.ns || (this.info?.namespaced === false ? '' : obj.metadata?.namespace ?? '');
  }

  /** The kind's apiVersion and kind filled in, as the server's codec expects them on a body. */
  private typed(obj: KubeObject): Json {
    if (!this.info) return obj;
    return { ...obj, apiVersion: obj.apiVersion ?? this.info.apiVersion, kind: obj.kind ?? this.info.kind };
  }

  private sub(subresource: string | undefined): ResourceInfo | undefined {
    if (!subresource) return this.info;
    // Sub-resources without a kind of their own (status, approval, finalize) speak the kind itself.
    return this.info?.subresourceKinds[subresource as keyof ResourceInfo['subresourceKinds']] ?? this.info;
  }

  async get(name: string, opts: { resourceVersion?: string } = {}): Promise<T> {
    return (await this.requester.call('GET', this.path(this.ns, name) + query({ resourceVersion: opts.resourceVersion }), { info: this.info })) as T;
  }

  /** One page (with limit/continue) or the whole collection; items carry apiVersion and kind. */
  async list(opts: ListOptions = {}): Promise<ObjectList<T>> {
    const list = (await this.requester.call('GET', this.path(this.ns) + query(listQuery(opts)), { info: this.info, list: true })) as unknown as ObjectList<T>;
    list.items ??= [];
    for (const item of list.items) {
      // Lists carry their items' type once, on the list; a cache or a controller wants it on each.
      item.apiVersion ??= this.apiVersion();
      if (this.info) item.kind ??= this.info.kind;
    }
    list.metadata ??= {};
    return list;
  }

  watch(opts: WatchOptions = {}, signal?: AbortSignal): Promise<Watch<T>> {
    const q = query({ ...listQuery(opts), watch: true, allowWatchBookmarks: opts.allowWatchBookmarks, sendInitialEvents: opts.sendInitialEvents });
    return this.requester.watch<T>(this.path(this.ns) + q, this.info, signal);
  }

  async create(obj: T, opts: WriteOptions = {}): Promise<T> {
    return (await this.requester.call('POST', this.path(this.nsOf(obj)) + query(writeQuery(opts)), { info: this.info, object: this.typed(obj) })) as T;
  }

  async update(obj: T, opts: WriteOptions = {}): Promise<T> {
    return (await this.requester.call('PUT', this.path(this.nsOf(obj), obj.metadata.name) + query(writeQuery(opts)), { info: this.info, object: this.typed(obj) })) as T;
  }

  /** PUT of the status sub-resource: only status changes (the server ignores the rest). */
  async updateStatus(obj: T, opts: WriteOptions = {}): Promise<T> {
    return (await this.requester.call('PUT', this.path(this.nsOf(obj), obj.metadata.name, 'status') + query(writeQuery(opts)), { info: this.info, object: this.typed(obj) })) as T;
  }

  /** PUT of a CertificateSigningRequest's approval sub-resource: only status.conditions changes. */
  async updateApproval(obj: T, opts: WriteOptions = {}): Promise<T> {
    return (await this.requester.call('PUT', this.path(this.nsOf(obj), obj.metadata.name, 'approval') + query(writeQuery(opts)), { info: this.info, object: this.typed(obj) })) as T;
  }

  /** A patch of the object or of a sub-resource (`status`, `scale`); apply takes a YAML or JSON document. */
  async patch(name: string, type: PatchType, patch: unknown, opts: PatchOptions & { subresource?: string } = {}): Promise<T> {
    const body = typeof patch === 'string' ? patch : JSON.stringify(patch);
    const info = this.sub(opts.subresource);
    return (await this.requester.call('PATCH', this.path(this.ns, name, opts.subresource) + query(writeQuery(opts)), {
      ...(info ? { info } : {}),
      raw: { body, contentType: patchContentTypes[type] },
    })) as T;
  }

  /** Server-side apply of `obj` as `fieldManager` owns it. */
  apply(obj: T, opts: PatchOptions & { fieldManager: string; subresource?: string }): Promise<T> {
    const ns = this.nsOf(obj);
    const scoped = ns === this.ns ? this : new ResourceClient<T>(this.requester, this.gvr, this.info, ns);
    return scoped.patch(obj.metadata.name ?? '', 'apply', this.typed(obj), opts);
  }

  /** A sub-resource read (`status`, `scale`, …), answered in the sub-resource's kind. */
  async getSubresource<S = Json>(name: string, subresource: string): Promise<S> {
    const info = this.sub(subresource);
    return (await this.requester.call('GET', this.path(this.ns, name, subresource), info ? { info } : {})) as S;
  }

  /** A sub-resource write (`scale`, `finalize`, …) of `body`, in the sub-resource's kind. */
  async updateSubresource<S = Json>(name: string, subresource: string, body: Json, opts: WriteOptions = {}): Promise<S> {
    const info = this.sub(subresource);
    return (await this.requester.call('PUT', this.path(this.ns, name, subresource) + query(writeQuery(opts)), { ...(info ? { info } : {}), object: body })) as S;
  }

  /** Deletes; the answer is the object while it is still terminating (finalizers, grace), else the server's success Status. */
  async delete(name: string, opts: DeleteOptions = {}): Promise<T | Status> {
    return (await this.requester.call('DELETE', this.path(this.ns, name) + query({ dryRun: opts.dryRun ? 'All' : undefined }), {
      info: this.info,
      raw: { body: JSON.stringify(deleteBody(opts)), contentType: 'application/json' },
    })) as T | Status;
  }

  /** Deletes every object the list options select; answers the list of what was deleted, or a Status. */
  async deleteCollection(listOpts: ListOptions = {}, opts: DeleteOptions = {}): Promise<ObjectList<T> | Status> {
    return (await this.requester.call('DELETE', this.path(this.ns) + query({ ...listQuery(listOpts), dryRun: opts.dryRun ? 'All' : undefined }), {
      info: this.info,
      list: true,
      raw: { body: JSON.stringify(deleteBody(opts)), contentType: 'application/json' },
    })) as unknown as ObjectList<T> | Status;
  }
}
