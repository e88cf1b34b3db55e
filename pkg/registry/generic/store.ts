// The generic registry store: the REST semantics of every resource (create, get, list, update,
// delete, deletecollection, watch) on top of the storage interface, shaped by a Strategy.
import { randomUUID } from 'node:crypto';
import { randomString } from '../../util/random-string.js';
import { formatTime } from '../../../api/meta/v1/primitives.js';
import type { DeleteOptions, ListMeta } from '../../../api/meta/v1/types.js';
import {
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newInternalError,
  newInvalid,
  newNotFound,
  newResourceExpired,
  newStaleConflict,
  newRequestEntityTooLarge,
  newServiceUnavailable,
  newUnknownOutcome,
  qualifiedResource,
  newTooLargeResourceVersion,
  StatusError,
  type GroupResource,
} from '../../runtime/errors.js';
import { GoLiteral, invalid, type FieldError } from '../../runtime/field-errors.js';
import { goQuote } from '../../util/go-quote.js';
import { matchesFields, parseFieldSelector } from '../../runtime/field-selector.js';
import { matchesLabels, parseLabelSelector } from '../../runtime/label-selector.js';
import { storagePrefix, type ResourceInfo } from '../../runtime/scheme.js';
import { shapeForWrite } from '../../runtime/wire-shape.js';
import { isStorageError, StorageError } from '../../storage/errors.js';
import type { GuardedWrite, Storage, StoredObject } from '../../storage/interface.js';
import type { UserInfo } from '../../runtime/user.js';
import { copyObject } from '../../runtime/copy.js';
import { preconditionFailure } from '../../storage/preconditions.js';
import type { Strategy } from '../rest/strategy.js';
import { decodeContinue, encodeContinue } from './continue-token.js';
import { EVERYTHING, SharedWatchEvents, type WatchFilter } from './watch-events.js';

export interface ListParams {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
}

export interface ListObject {
  kind: string;
  apiVersion: string;
  metadata: ListMeta;
  items: StoredObject[];
}

export interface WatchParams {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  allowWatchBookmarks?: boolean;
  /**
   * Begin with the state (true: a watch-list), or with the changes only (false); undefined keeps
   * the legacy rule: the state first when resourceVersion is unset or "0".
   */
  sendInitialEvents?: boolean;
}

/** The state a watch begins with, handed to its sink once, before any change. */
export interface InitialEvents {
  /** The objects of the state, with kind and apiVersion, each to be sent as an ADDED event; made as they are taken. */
  objects: Iterator<StoredObject>;
  /** The revision of the state: the changes after it follow. */
  resourceVersion: string;
  /** A BOOKMARK at `resourceVersion` marking the end of the initial events follows them (a watch-list with bookmarks allowed). */
  endBookmark: boolean;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchSink {
  initial(state: InitialEvents): void;
  event(type: Exclude<WatchEventType, 'BOOKMARK' | 'ERROR'>, obj: StoredObject): void;
  bookmark(resourceVersion: string): void;
  /** The watch cannot go on; the Status is sent as an ERROR event and the stream ends. */
  error(err: StatusError): void;
}

/**
 * Another object to write in the same transaction as the one being written, only if it is still at
 * `resourceVersion` (a ResourceQuota whose status.used admission charged for this object).
 */
export interface ObjectWrite {
  group: string;
  resource: string;
  namespace: string;
  name: string;
  object: StoredObject;
  resourceVersion: string;
}

/**
 * Admission's validating phase, passed in so the registry never imports admission. `attempt`
 * counts the tries of this write: past the first, an object written alongside moved on since it
 * was read, so it should be read afresh. Returns the objects to write alongside.
 */
export type ValidateObjectFunc = (obj: StoredObject, old: StoredObject | null, attempt: number) => Promise<ObjectWrite[] | void>;

function guardedWrites(writes: ObjectWrite[] | void): GuardedWrite[] {
  return (writes ?? []).map((w) => ({
    key: `${storagePrefix(w.group, w.resource)}${w.namespace ? `${w.namespace}/` : ''}${w.name}`, object: w.object, resourceVersion: w.resourceVersion,
  }));
}

export interface WriteOptions {
  dryRun?: boolean;
  validate?: ValidateObjectFunc;
  /** Who asks: kinds that record their requester read it while preparing a new object. */
  user?: UserInfo | undefined;
  /** Aborted when the request was answered without the write (it timed out): the write is given up. */
  signal?: AbortSignal | undefined;
}

export interface UpdateOptions extends WriteOptions {
  /** Serve a sub-resource (status, finalize) rather than the main resource. */
  subresource?: string;
  /** Create a missing object whatever the strategy says (server-side apply creates). */
  forceAllowCreate?: boolean;
  /**
   * `objInfo` makes a new object on every call, whose parts are its own or already in stored form
   * (shared with the current object at most, which the store only ever reads or replaces): the store
   * prepares it in place instead of copying it first. Without it (the default) the store copies,
   * since an objInfo may hand back an object it keeps, or the current object itself, which the
   * watch cache shares frozen.
   */
  owned?: boolean;
}

/** Computes the new object from the stored one (null when it does not exist yet). */
export type UpdatedObjectInfo = (current: StoredObject | null) => Promise<StoredObject>;

export interface DeleteResult {
  /** The object as deleted, or as left pending its finalizers. */
  object: StoredObject;
  /** False while finalizers keep the object (HTTP 202). */
  deleted: boolean;
}

/** Finishes a write a hook began: `stored` tells whether the object reached storage. */
export type FinishWrite = (stored: boolean) => Promise<void>;

/**
 * Work a kind does around its writes beyond the strategy (upstream's BeginCreate, BeginUpdate and
 * AfterDelete), such as allocating addresses held in storage; run after validation and admission.
 */
export interface WriteHooks {
  beginCreate?(obj: StoredObject, dryRun: boolean): Promise<FinishWrite>;
  beginUpdate?(obj: StoredObject, old: StoredObject, dryRun: boolean): Promise<FinishWrite>;
  /** After the object is gone from storage. */
  afterDelete?(obj: StoredObject): Promise<void>;
}

export interface StoreConfig {
  info: ResourceInfo;
  storage: Storage;
  strategy: Strategy;
  /** Strategies of the sub-resources that accept updates, by name. */
  subresources?: ReadonlyMap<string, Strategy>;
  /** The random part of generated names (five lower-case alphanumerics); replaceable for tests. */
  nameSuffix?: () => string;
  hooks?: WriteHooks;
  /** Objects vanish this many seconds after their last write (events, --event-ttl); absent: never. */
  ttlSeconds?: number;
}

/** How long a read for a resourceVersion newer than etcd's waits before answering 504. */
const TOO_LARGE_RV_WAIT_MS = 3000;
const GENERATE_NAME_ATTEMPTS = 8;
/** Tries of a write whose guarded companions keep moving (each lost try means another writer won). */
const GUARDED_WRITE_ATTEMPTS = 100;
/** The random part of a generated name (upstream's five characters). */
const randomSuffix = () => randomString(5);

const UINT64_MAX = 2n ** 64n - 1n;

/**
 * Parses a client's resourceVersion (0 for unset) as upstream's versioner does, with Go's
 * strconv.ParseUint: anything but a decimal uint64 is a 400 in upstream's words, the same for a
 * get, a list and a watch (a number beyond 2^64 is malformed, not a revision to wait for).
 */
export function parseResourceVersion(rv: string | undefined): number {
  if (rv === undefined || rv === '') return 0;
  const why = !/^[0-9]+$/.test(rv) ? 'invalid syntax' : BigInt(rv) > UINT64_MAX ? 'value out of range' : undefined;
  if (why) {
    throw newBadRequest(`invalid resource version: resourceVersion: Invalid value: ${goQuote(rv)}: strconv.ParseUint: parsing ${goQuote(rv)}: ${why}`);
  }
  return Number(rv);
}

export class Store {
  readonly info: ResourceInfo;
  private readonly storage: Storage;
  readonly strategy: Strategy;
  private readonly subresources: ReadonlyMap<string, Strategy>;
  private readonly nameSuffix: () => string;
  private readonly hooks: WriteHooks;
  private readonly gr: GroupResource;
  private readonly prefix: string;
  /** The version continue tokens carry: meta.<domain>/v1. */
  private readonly tokenVersion: string;
  /** Passed with every write: objects of resources with a time to live carry a lease. */
  private readonly ttl: { ttlSeconds?: number };
  /** Watch events prepared once for all of this store's watchers. */
  private readonly watchEvents = new SharedWatchEvents((obj) => this.withTypeMeta(obj));

  constructor(cfg: StoreConfig) {
    this.info = cfg.info;
    this.storage = cfg.storage;
    this.strategy = cfg.strategy;
    this.subresources = cfg.subresources ?? new Map();
    this.nameSuffix = cfg.nameSuffix ?? randomSuffix;
    this.hooks = cfg.hooks ?? {};
    this.gr = cfg.info.groupResource;
    this.prefix = cfg.info.storagePrefix;
    this.ttl = cfg.ttlSeconds ? { ttlSeconds: cfg.ttlSeconds } : {};
    this.tokenVersion = `${cfg.info.domain.metaGroup}/v1`;
  }

  private key(namespace: string, name: string): string {
    // Below the storage prefix: a kind stored as another resource uses that resource's keys.
    return `${this.prefix}${this.info.namespaced && namespace ? `${namespace}/` : ''}${name}`;
  }

  private collectionPrefix(namespace: string): string {
    return this.info.namespaced && namespace ? `${this.prefix}${namespace}/` : this.prefix;
  }

  /** Turns a storage error into the Status a client should see. */
  private interpret(err: unknown, name: string): never {
    if (err instanceof StatusError) throw err;
    if (err instanceof StorageError) {
      switch (err.code) {
        case 'KeyNotFound':
          throw newNotFound(this.gr, name);
        case 'KeyExists':
          throw newAlreadyExists(this.gr, name);
        case 'ResourceVersionConflicts':
          throw newConflict(this.gr, name, err.message);
        case 'Expired':
          throw newResourceExpired(err.message);
        case 'TooLargeResourceVersion':
          throw newTooLargeResourceVersion(0, err.currentRevision ?? 0, 1);
        case 'RequestTooLarge':
          throw newRequestEntityTooLarge(`${qualifiedResource(this.gr)} "${name}": ${err.message}`);
        case 'Unreachable':
          throw newServiceUnavailable(`the storage backend is unavailable: ${err.message}`);
        case 'OutcomeUnknown':
          throw newUnknownOutcome(err.message);
        default:
          throw newInternalError(err);
      }
    }
    throw newInternalError(err);
  }

  /** Waits until etcd has reached `revision`, or answers 504 "Too large resource version". */
  private async waitForRevision(revision: number): Promise<void> {
    const deadline = Date.now() + TOO_LARGE_RV_WAIT_MS;
    for (;;) {
      const current = await this.storage.currentRevision().catch((e: unknown) => this.interpret(e, ''));
      if (current >= revision) return;
      if (Date.now() >= deadline) throw newTooLargeResourceVersion(revision, current, 1);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The object with kind and apiVersion first, in upstream's order. */
  private withTypeMeta(obj: StoredObject): StoredObject {
    const { kind: _k, apiVersion: _a, ...rest } = obj;
    return { kind: this.info.kind, apiVersion: this.info.apiVersion, ...rest };
  }

  private checkInvalid(obj: StoredObject, errs: FieldError[]): void {
    if (errs.length > 0) throw newInvalid(this.info.kind, this.info.group, obj.metadata.name ?? obj.metadata.generateName ?? '', errs);
  }

  async get(namespace: string, name: string, resourceVersion?: string): Promise<StoredObject> {
    const rv = parseResourceVersion(resourceVersion);
    if (rv > 0) await this.waitForRevision(rv);
    // With a resourceVersion (even "0") any state not older than it will do: a cache may answer.
    const fresh = resourceVersion ? { consistency: 'notOlderThan' as const, minRevision: rv } : {};
    const obj = await this.storage.get(this.key(namespace, name), fresh).catch((e: unknown) => this.interpret(e, name));
    return this.withTypeMeta(obj);
  }

  /** Builds the filter of a list or watch from its selectors; malformed selectors are 400. */
  private predicate(labelSelector: string | undefined, fieldSelector: string | undefined) {
    const labels = labelSelector ? parseLabelSelector(labelSelector) : [];
    const fields = fieldSelector ? parseFieldSelector(fieldSelector, this.strategy.selectableFieldNames) : [];
    if (labels.length === 0 && fields.length === 0) return undefined;
    return (obj: StoredObject) =>
      matchesLabels(labels, obj.metadata.labels) && (fields.length === 0 || matchesFields(fields, this.strategy.selectableFields(obj)));
  }

  /** The equality terms of a field selector, which a cache's field index (pods by spec.nodeName) can use. */
  private fieldEquals(fieldSelector: string | undefined): { field: string; value: string }[] {
    if (!fieldSelector) return [];
    return parseFieldSelector(fieldSelector, this.strategy.selectableFieldNames).filter((r) => r.op === '=').map(({ field, value }) => ({ field, value }));
  }

  async list(namespace: string, p: ListParams): Promise<ListObject> {
    const predicate = this.predicate(p.labelSelector, p.fieldSelector);
    const fieldEquals = this.fieldEquals(p.fieldSelector);
    const limit = p.limit && p.limit > 0 ? p.limit : 0;
    const rv = parseResourceVersion(p.resourceVersion);
    const match = p.resourceVersionMatch ?? '';
    const prefix = this.collectionPrefix(namespace);
    if (match && match !== 'Exact' && match !== 'NotOlderThan') {
      throw newBadRequest(`resourceVersionMatch: Unsupported value: "${match}": supported values: "Exact", "NotOlderThan"`);
    }
    if (match && !p.resourceVersion) {
      throw newBadRequest('resourceVersionMatch is forbidden unless resourceVersion is provided');
    }
    let revision = 0;
    let startKey: string | undefined;
    /** Set when a state not older than `minRevision` will do (a cache may answer). */
    let notOlderThan: { consistency: 'notOlderThan'; minRevision: number } | undefined;
    if (p.continue) {
      if (match) throw newBadRequest('resourceVersionMatch is forbidden when continue is provided');
      if (rv > 0) throw newBadRequest('specifying resource version is not allowed when using continue');
      const pos = decodeContinue(p.continue, this.tokenVersion);
      revision = Math.max(pos.revision, 0);
      startKey = this.prefix + pos.start;
      if (!startKey.startsWith(prefix)) throw newBadRequest('continue key is not valid: encoded start key is outside the listed collection');
    } else if (match === 'Exact') {
      if (rv === 0) throw newBadRequest('resourceVersionMatch "Exact" is forbidden for resourceVersion "0"');
      revision = rv;
    } else if (rv > 0) {
      if (limit && !match) revision = rv; // Exact, as the table of section 4.6 says
      else {
        await this.waitForRevision(rv); // Not older than: the latest state is
        notOlderThan = { consistency: 'notOlderThan', minRevision: rv };
      }
    } else if (p.resourceVersion) {
      notOlderThan = { consistency: 'notOlderThan', minRevision: 0 }; // any state
    }
    if (revision > 0) await this.waitForRevision(revision);
    let res;
    try {
      res = await this.storage.list(prefix, {
        ...(revision ? { revision } : {}),
        ...(limit ? { limit } : {}),
        ...(startKey ? { startKey } : {}),
        ...(predicate ? { predicate } : {}),
        ...(fieldEquals.length ? { fieldEquals } : {}),
        ...notOlderThan,
      });
    } catch (e) {
      if (isStorageError(e, 'Expired') && startKey) {
        // The snapshot is gone; offer a token that continues from the same key at the latest state.
        const err = newResourceExpired('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.');
        err.status.metadata = { continue: encodeContinue({ revision: -1, start: startKey.slice(this.prefix.length) }, this.tokenVersion) };
        throw err;
      }
      if (isStorageError(e, 'Expired')) throw newResourceExpired(`The resourceVersion for the provided list is too old.`);
      this.interpret(e, '');
    }
    const metadata: ListMeta = { resourceVersion: String(res.revision) };
    if (res.continueKey) {
      metadata.continue = encodeContinue({ revision: res.revision, start: res.continueKey.slice(this.prefix.length) }, this.tokenVersion);
      if (!predicate && res.remaining !== undefined) metadata.remainingItemCount = res.remaining;
    }
    return {
      kind: this.info.listKind,
      apiVersion: this.info.apiVersion,
      metadata,
      items: res.items.map((o) => this.listItem(o)),
    };
  }

  /**
   * An object as a list carries it: built-in kinds without apiVersion and kind (Go's typed lists
   * omit them), custom resources with them (upstream's unstructured lists keep every field).
   */
  private listItem(obj: StoredObject): StoredObject {
    if (this.info.custom) return this.withTypeMeta(obj);
    const { apiVersion: _a, kind: _k, ...rest } = obj;
    return rest as StoredObject;
  }

  async create(namespace: string, input: StoredObject, opts: WriteOptions = {}): Promise<StoredObject> {
    for (let attempt = 1; ; attempt++) {
      const { obj, generated, alongside } = await this.prepareNew(namespace, input, opts, attempt);
      const name = obj.metadata.name!;
      if (opts.dryRun) {
        // A dry run answers as the real create would, existing names included.
        const exists = await this.storage.get(this.key(namespace, name)).then(() => true, (e: unknown) => (isStorageError(e, 'KeyNotFound') ? false : this.interpret(e, name)));
        if (exists) throw newAlreadyExists(this.gr, name);
        if (this.hooks.beginCreate) await (await this.hooks.beginCreate(obj, true).catch((e: unknown) => this.interpret(e, name)))(false);
        return obj;
      }
      const finish = this.hooks.beginCreate ? await this.hooks.beginCreate(obj, false).catch((e: unknown) => this.interpret(e, name)) : undefined;
      try {
        const created = await this.storage.create(this.key(namespace, name), obj, { alongside, ...this.ttl, signal: opts.signal });
        await finish?.(true);
        return created;
      } catch (e) {
        await finish?.(false).catch(() => undefined);
        // A generated name that is taken gets another; a companion that moved on is read again.
        if (generated && isStorageError(e, 'KeyExists') && attempt < GENERATE_NAME_ATTEMPTS) continue;
        if (alongside.length > 0 && isStorageError(e, 'ResourceVersionConflicts') && attempt < GUARDED_WRITE_ATTEMPTS) continue;
        this.interpret(e, name);
      }
    }
  }

  /** A new object as it will be stored: server-set metadata, the strategy's preparation, validated and admitted. */
  private async prepareNew(namespace: string, input: StoredObject, opts: WriteOptions, attempt: number): Promise<{ obj: StoredObject; generated: boolean; alongside: GuardedWrite[] }> {
    const obj = this.withTypeMeta(copyObject(input));
    obj.apiVersion = this.info.apiVersion;
    obj.kind = this.info.kind;
    const meta = obj.metadata;
    if (this.info.namespaced) meta.namespace = namespace;
    else delete meta.namespace;
    if (meta.resourceVersion) throw newBadRequest('resourceVersion should not be set on objects to be created');
    meta.uid = randomUUID();
    meta.creationTimestamp = formatTime(new Date());
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    const generated = !meta.name && !!meta.generateName;
    if (generated) meta.name = meta.generateName + this.nameSuffix();
    this.strategy.prepareForCreate(obj, { user: opts.user });
    this.checkInvalid(obj, await this.strategy.validate(obj));
    const alongside = guardedWrites(await opts.validate?.(obj, null, attempt));
    // Only now: a zero filled in earlier would hide a missing required field from validation.
    shapeForWrite(this.info.schema, obj);
    return { obj, generated, alongside };
  }

  /**
   * Update (PUT) and patch of the main resource or its status: `objInfo` computes the desired
   * object from the stored one; returns the result and whether it was created.
   */
  async update(namespace: string, name: string, objInfo: UpdatedObjectInfo, opts: UpdateOptions = {}): Promise<{ object: StoredObject; created: boolean }> {
    const strategy = opts.subresource ? this.subresources.get(opts.subresource) : this.strategy;
    if (!strategy) throw newNotFound(this.gr, name);
    const key = this.key(namespace, name);
    let created = false;
    // Allocations begun by an attempt that storage then retried or refused are undone.
    let finish: FinishWrite | undefined;
    const abandon = async () => {
      const f = finish;
      finish = undefined;
      await f?.(false).catch(() => undefined);
    };
    const hooks = opts.subresource ? {} : this.hooks;
    let attempt = 0;
    let alongside: GuardedWrite[] = [];
    const tryUpdate = async (current: StoredObject | null): Promise<StoredObject> => {
      await abandon();
      attempt++;
      alongside = [];
      const next = await objInfo(current ? this.withTypeMeta(current) : null);
      const obj = this.withTypeMeta(opts.owned ? next : copyObject(next));
      obj.apiVersion = this.info.apiVersion;
      obj.kind = this.info.kind;
      if (!current) {
        if (!strategy.allowCreateOnUpdate && !opts.forceAllowCreate) throw newNotFound(this.gr, name);
        created = true;
        const { resourceVersion: _rv, ...metadata } = obj.metadata;
        const fresh = await this.prepareNew(namespace, { ...obj, metadata }, opts, attempt);
        alongside = fresh.alongside;
        if (hooks.beginCreate) finish = await hooks.beginCreate(fresh.obj, !!opts.dryRun);
        return fresh.obj;
      }
      created = false;
      const sentRV = obj.metadata.resourceVersion;
      if (!sentRV) {
        if (!strategy.allowUnconditionalUpdate) {
          // Upstream names the resource where the kind belongs here, and prints the uint64 as Go's %#v does.
          throw newInvalid(this.info.resource, this.info.group, name, [invalid('metadata.resourceVersion', new GoLiteral('0x0'), 'must be specified for an update')]);
        }
      } else if (sentRV !== current.metadata.resourceVersion) {
        throw newStaleConflict(this.gr, name);
      }
      if (obj.metadata.uid && obj.metadata.uid !== current.metadata.uid) {
        throw newConflict(this.gr, name, `Precondition failed: UID in precondition: ${obj.metadata.uid}, UID in object meta: ${current.metadata.uid ?? ''}`);
      }
      obj.metadata.resourceVersion = current.metadata.resourceVersion!;
      obj.metadata.uid ??= current.metadata.uid!;
      // The server's own record of the creation wins, however the client spells (or drops) it.
      obj.metadata.creationTimestamp = current.metadata.creationTimestamp!;
      if (obj.metadata.namespace === undefined && this.info.namespaced) obj.metadata.namespace = namespace;
      // Deletion state is the server's alone.
      for (const f of ['deletionTimestamp', 'deletionGracePeriodSeconds'] as const) {
        if (current.metadata[f] === undefined) delete obj.metadata[f];
        else (obj.metadata as Record<string, unknown>)[f] = current.metadata[f];
      }
      delete obj.metadata.selfLink;
      strategy.prepareForUpdate(obj, current);
      this.checkInvalid(obj, await strategy.validateUpdate(obj, current));
      alongside = guardedWrites(await opts.validate?.(obj, current, attempt));
      shapeForWrite(this.info.schema, obj);
      // The last finalizer of a terminating object is gone: the object goes, in this same write.
      if (obj.metadata.deletionTimestamp && !strategy.hasPendingFinalizers(obj)) throw new FinalizersEmptied(obj, current);
      if (hooks.beginUpdate) finish = await hooks.beginUpdate(obj, current, !!opts.dryRun);
      return obj;
    };
    try {
      if (opts.dryRun) {
        const current = await this.storage.get(key).catch((e: unknown) => (isStorageError(e, 'KeyNotFound') ? null : this.interpret(e, name)));
        const object = await tryUpdate(current);
        await abandon();
        return { object, created };
      }
      const object = await this.storage.guaranteedUpdate(key, tryUpdate, { ignoreNotFound: strategy.allowCreateOnUpdate || !!opts.forceAllowCreate, alongside: () => alongside, ...this.ttl, signal: opts.signal });
      const f = finish as FinishWrite | undefined;
      finish = undefined;
      // A release that fails leaves a key the next allocation reclaims; the write itself stood.
      await f?.(true).catch(() => undefined);
      return { object, created };
    } catch (e) {
      await abandon();
      if (e instanceof FinalizersEmptied) {
        if (opts.dryRun) return { object: e.obj, created: false };
        try {
          await this.storage.delete(key, { preconditions: { resourceVersion: e.current.metadata.resourceVersion! }, signal: opts.signal });
          await this.hooks.afterDelete?.(e.current).catch(() => undefined);
          return { object: e.obj, created: false };
        } catch (err) {
          // Changed since it was read: go round again with the fresh object.
          if (isStorageError(err, 'ResourceVersionConflicts') || isStorageError(err, 'KeyNotFound')) return this.update(namespace, name, objInfo, opts);
          this.interpret(err, name);
        }
      }
      this.interpret(e, name);
    }
  }

  /**
   * A server-side change of a stored object (binding a pod, charging a disruption budget): `change`
   * edits the freshest object in one compare-and-swap, retried on concurrent writes. No strategy
   * runs; the caller owns the rules. With dryRun nothing is written.
   */
  async mutate(
    namespace: string, name: string, change: (current: StoredObject) => StoredObject,
    opts: { dryRun?: boolean; preconditions?: { uid?: string; resourceVersion?: string } } = {},
  ): Promise<StoredObject> {
    const key = this.key(namespace, name);
    const apply = (current: StoredObject) => {
      const obj = change(this.withTypeMeta(structuredClone(current)));
      shapeForWrite(this.info.schema, obj);
      return obj;
    };
    try {
      if (opts.dryRun) {
        const current = await this.storage.get(key);
        const failure = preconditionFailure(opts.preconditions ?? {}, current);
        if (failure) throw newConflict(this.gr, name, failure);
        return this.withTypeMeta(apply(current));
      }
      const stored = await this.storage.guaranteedUpdate(key, async (current) => (current ? apply(current) : null), {
        ...(opts.preconditions ? { preconditions: opts.preconditions } : {}),
      });
      return this.withTypeMeta(stored);
    } catch (e) {
      this.interpret(e, name);
    }
  }

  /**
   * Deletes an object. One with pending finalizers (its own, or those the propagation policy
   * adds) is only marked with deletionTimestamp and stays until they are removed.
   */
  async delete(namespace: string, name: string, options: DeleteOptions = {}, opts: WriteOptions = {}): Promise<DeleteResult> {
    const key = this.key(namespace, name);
    const pre = options.preconditions ?? {};
    const preconditions = { ...(pre.uid ? { uid: pre.uid } : {}), ...(pre.resourceVersion ? { resourceVersion: pre.resourceVersion } : {}) };
    const mark = (current: StoredObject): StoredObject | null => {
      const obj = structuredClone(current);
      const finalizers = finalizersAfterPropagation(obj.metadata.finalizers ?? [], options);
      if (finalizers.length > 0) obj.metadata.finalizers = finalizers;
      else delete obj.metadata.finalizers;
      if (!this.strategy.hasPendingFinalizers(obj)) return null;
      if (!obj.metadata.deletionTimestamp) {
        obj.metadata.deletionTimestamp = formatTime(new Date());
        obj.metadata.deletionGracePeriodSeconds = 0;
      }
      this.strategy.prepareForDeletion(obj);
      return obj;
    };
    try {
      const current = this.withTypeMeta(await this.storage.get(key));
      const failure = preconditionFailure(preconditions, current);
      if (failure) throw newConflict(this.gr, name, failure);
      this.strategy.validateDeletion(current);
      await opts.validate?.(current, current, 1);
      const marked = mark(current);
      if (opts.dryRun) return { object: marked ?? current, deleted: marked === null };
      if (marked) {
        const stored = await this.storage.guaranteedUpdate(key, async (latest) => (latest ? mark(latest) ?? latest : null), { preconditions: { ...preconditions, resourceVersion: current.metadata.resourceVersion! }, ...this.ttl, signal: opts.signal });
        if (this.strategy.hasPendingFinalizers(stored)) return { object: this.withTypeMeta(stored), deleted: false };
      }
      const removed = await this.storage.delete(key, { preconditions: { ...preconditions, resourceVersion: current.metadata.resourceVersion! }, signal: opts.signal });
      await this.hooks.afterDelete?.(removed).catch(() => undefined);
      return { object: this.withTypeMeta(removed), deleted: true };
    } catch (e) {
      if (isStorageError(e, 'ResourceVersionConflicts') && !preconditions.resourceVersion) {
        // The object changed between reading and writing it: start over with the fresh state.
        return this.delete(namespace, name, options, opts);
      }
      this.interpret(e, name);
    }
  }

  /** Deletes every object of the collection that the selectors match; returns the deleted objects. */
  async deleteCollection(namespace: string, p: ListParams, options: DeleteOptions = {}, opts: WriteOptions = {}): Promise<ListObject> {
    const list = await this.list(namespace, p);
    const deleted: StoredObject[] = [];
    for (const item of list.items) {
      try {
        const r = await this.delete(item.metadata.namespace ?? '', item.metadata.name!, { ...options, preconditions: { uid: item.metadata.uid! } }, opts);
        deleted.push(this.listItem(r.object));
      } catch (e) {
        if (e instanceof StatusError && (e.code === 404 || e.code === 409)) continue; // already gone or replaced
        throw e;
      }
    }
    return { ...list, metadata: { resourceVersion: list.metadata.resourceVersion! }, items: deleted };
  }

  /**
   * Watches the collection (or one object when `name` is set). With initial events (a watch-list,
   * or resourceVersion unset or "0") the sink is first handed the state: with resourceVersion unset
   * the latest (a consistent read), with "0" any the storage has, with N one not older than N;
   * the changes after that state follow. A watch-list for a version etcd has not reached ends with
   * an ERROR (504 "Too large resource version"), as upstream's.
   */
  async watch(namespace: string, name: string | undefined, p: WatchParams, sink: WatchSink): Promise<() => Promise<void>> {
    let fieldSelector = p.fieldSelector;
    if (name) fieldSelector = [fieldSelector, `metadata.name=${name}`].filter(Boolean).join(',');
    const predicate = this.predicate(p.labelSelector, fieldSelector);
    // Watchers with the same selectors share each event's verdict (see watch-events.ts).
    const filter: WatchFilter = predicate ? { key: `${p.labelSelector ?? ''}\u0000${fieldSelector ?? ''}`, matches: predicate } : EVERYTHING;
    const rv = parseResourceVersion(p.resourceVersion);
    let from = rv;
    const prefix = name ? this.key(namespace, name) : this.collectionPrefix(namespace);
    if (p.sendInitialEvents ?? rv === 0) {
      if (rv > 0) {
        try {
          await this.waitForRevision(rv);
        } catch (e) {
          if (!(e instanceof StatusError) || e.code !== 504) throw e;
          sink.error(e);
          return async () => undefined;
        }
      }
      // With a resourceVersion (even "0") any state not older than it will do: a cache may answer.
      const fresh = p.resourceVersion ? { consistency: 'notOlderThan' as const, minRevision: rv } : {};
      const fieldEquals = this.fieldEquals(fieldSelector);
      const state = await this.storage.list(prefix, { ...fresh, ...(predicate ? { predicate } : {}), ...(fieldEquals.length ? { fieldEquals } : {}) })
        .catch((e: unknown) => this.interpret(e, name ?? ''));
      from = state.revision;
      sink.initial({ objects: this.typed(state.items), resourceVersion: String(from), endBookmark: p.sendInitialEvents === true && !!p.allowWatchBookmarks });
    } else if (rv === 0) {
      // Changes only, from now (resourceVersion unset: the most recent; "0": any, and now is one).
      from = await this.storage.currentRevision().catch((e: unknown) => this.interpret(e, name ?? ''));
    }
    let lastRV = from;
    const w = await this.storage.watch(prefix, { afterRevision: from, recursive: !name }, {
      event: (e) => {
        lastRV = e.revision;
        const d = this.watchEvents.delivery(e, filter);
        if (d) sink.event(d.type, d.object);
      },
      progress: (revision) => {
        // etcd vouches that everything up to `revision` was delivered: each notification is a bookmark.
        if (p.allowWatchBookmarks && revision >= lastRV && revision > from) {
          lastRV = revision;
          sink.bookmark(String(revision));
        }
      },
      error: (err) => {
        if (isStorageError(err, 'Expired')) {
          sink.error(newResourceExpired(`too old resource version: ${from} (${lastRV})`));
        } else {
          sink.error(newInternalError(err));
        }
      },
    }).catch((e: unknown) => this.interpret(e, name ?? ''));
    return () => w.stop();
  }

  /** The items with kind and apiVersion, each made as it is taken. */
  private *typed(items: StoredObject[]): Generator<StoredObject> {
    for (const item of items) yield this.withTypeMeta(item);
  }
}

/** Signals that an update removed the last finalizer of a terminating object. */
class FinalizersEmptied extends Error {
  constructor(readonly obj: StoredObject, readonly current: StoredObject) {
    super('finalizers emptied');
  }
}

/** Finalizers after a delete's propagation policy: Orphan and Foreground record theirs, Background clears both. */
export function finalizersAfterPropagation(finalizers: string[], options: DeleteOptions): string[] {
  const policy = options.propagationPolicy ?? (options.orphanDependents === true ? 'Orphan' : options.orphanDependents === false ? 'Background' : undefined);
  if (!policy) return finalizers;
  const without = finalizers.filter((f) => f !== 'orphan' && f !== 'foregroundDeletion');
  if (policy === 'Orphan') return [...without, 'orphan'];
  if (policy === 'Foreground') return [...without, 'foregroundDeletion'];
  return without;
}
