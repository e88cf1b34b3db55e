// What an admission plug-in is told about a request and the shapes a plug-in takes. Plug-ins see our
// JSON objects directly; the endpoints handler builds one Attributes per request and hands the same
// value to the mutating chain and (through the registry's callback) to the validating chain, so
// annotations and the reinvocation state travel across both phases.
import type { ApiDomain } from '../../api/domain.js';
import type { ObjectWithMeta } from '../../api/meta/v1/types.js';
import type { Logger } from '../log/logger.js';
import type { ObjectWrite } from '../registry/generic/store.js';
import type { UserInfo } from '../runtime/user.js';

/** The operations admission is consulted for; a read is never admitted. */
export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export const Operations: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** A JSON object as decoded from the request or read from storage. */
export type AdmissionObject = Record<string, unknown>;

/**
 * State the mutating phase keeps between its first and second pass. A plug-in (a mutating webhook)
 * that changed the object asks for another pass so the plug-ins before it see the change.
 */
export interface ReinvocationContext {
  /** True while the chain runs its second pass. */
  isReinvoke(): boolean;
  setIsReinvoke(): void;
  /** True once some plug-in asked for a second pass. */
  shouldReinvoke(): boolean;
  setShouldReinvoke(): void;
  /** Per-plug-in memory across passes (e.g. which webhooks ran and whether they mutated). */
  setValue(plugin: string, value: unknown): void;
  value(plugin: string): unknown;
}

/** The audit levels that record anything, lowest first (upstream's audit.Level). */
export type AuditLevel = 'Metadata' | 'Request' | 'RequestResponse';

const auditLevelOrder: Record<AuditLevel, number> = { Metadata: 1, Request: 2, RequestResponse: 3 };

/** Whether an audit event at `eventLevel` includes what is recorded from `level` on. */
export function auditLevelIncludes(eventLevel: AuditLevel, level: AuditLevel): boolean {
  return auditLevelOrder[eventLevel] >= auditLevelOrder[level];
}

/** Everything a plug-in may know about one request (upstream's admission.Attributes). */
export interface Attributes {
  /** The kind of the object being written, e.g. {group: '', version: 'v1', kind: 'Pod'}; for a subresource, the subresource's kind. */
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  /** '' for the main resource, else e.g. 'status', 'binding', 'exec'. */
  readonly subresource: string;
  /** The name in the request; '' on a create that relies on generateName. */
  readonly name: string;
  /** '' for cluster-scoped resources. */
  readonly namespace: string;
  readonly operation: Operation;
  /**
   * The incoming object (create, update, connect options), or undefined (delete). Mutating plug-ins
   * change it in place or replace it with `setObject`.
   */
  readonly object: AdmissionObject | undefined;
  /** The stored object for update and delete. */
  readonly oldObject: AdmissionObject | undefined;
  /** The operation's options: CreateOptions, UpdateOptions, DeleteOptions, or the connect options. */
  readonly options: AdmissionObject | undefined;
  /** True when nothing will be persisted: plug-ins then must have no side effects. */
  readonly dryRun: boolean;
  readonly userInfo: UserInfo;
  /** Replaces the incoming object (a webhook's patched copy); marks the object as changed. */
  setObject(object: AdmissionObject): void;
  /**
   * Records an audit annotation `<plugin-domain>/<key>`; refuses a malformed key and a second,
   * different value for a key already set.
   */
  addAnnotation(key: string, value: string): void;
  /**
   * As addAnnotation, but the annotation reaches the audit event only when the event is recorded
   * at `level` or above (a webhook's JSON patch is recorded from level Request).
   */
  addAnnotationWithLevel(key: string, value: string, level: AuditLevel): void;
  /** The annotations recorded so far that an audit event at `level` carries (every one when omitted). */
  annotations(level?: AuditLevel): Record<string, string>;
  /** Adds a warning for the client (a `Warning: 299` header on the answer), as a webhook's response asks. */
  warn(text: string): void;
  readonly reinvocation: ReinvocationContext;
  /**
   * True when an earlier try of this write failed because an object a plug-in wrote alongside it
   * had changed: plug-ins then read that object live (`fetch`), not from their caches.
   */
  readonly retrying: boolean;
  /**
   * Writes `write.object` in the same transaction as the request's object, and only if it is still
   * at `write.resourceVersion` (ResourceQuota charging status.used); validating phase only.
   */
  writeAlongside(write: AlongsideWrite): void;
}

/** An object a plug-in writes together with the request's object (see Attributes.writeAlongside). */
export type AlongsideWrite = ObjectWrite;

/** Every plug-in says which operations it cares about; the chain skips it for the others. */
export interface AdmissionPlugin {
  /** The upstream plug-in name, e.g. `NamespaceLifecycle`. */
  readonly name: string;
  handles(operation: Operation): boolean;
}

/** A plug-in that may change the object. May throw to reject. */
export interface MutationInterface extends AdmissionPlugin {
  admit(attrs: Attributes): void | Promise<void>;
}

/** A plug-in that may only reject. It must not change anything it is given. */
export interface ValidationInterface extends AdmissionPlugin {
  validate(attrs: Attributes): void | Promise<void>;
}

export function isMutating(p: AdmissionPlugin): p is MutationInterface {
  return typeof (p as Partial<MutationInterface>).admit === 'function';
}

export function isValidating(p: AdmissionPlugin): p is ValidationInterface {
  return typeof (p as Partial<ValidationInterface>).validate === 'function';
}

/** A `handles` for plug-ins that act on a fixed set of operations (upstream's admission.Handler). */
export function handlesOperations(...ops: Operation[]): (operation: Operation) => boolean {
  const set = new Set(ops);
  return (operation) => set.has(operation);
}

/**
 * Read access to one resource's objects as an informer-fed cache holds them (plug-ins never read
 * etcd per request); `fetch` is the quorum read for when the cache may lag behind a write made a
 * moment ago (upstream's live lookup), to be used only after the cache said "not found" or after
 * a compare-and-swap failed.
 */
export interface ObjectLister {
  get(namespace: string, name: string): AdmissionObject | undefined;
  /** Every object, or those of one namespace ('' lists cluster-scoped objects). */
  list(namespace?: string): AdmissionObject[];
  fetch(namespace: string, name: string): Promise<AdmissionObject | undefined>;
}

/**
 * The served kinds as the webhook plug-ins need them (upstream's ObjectInterfaces): which resources
 * are the same objects under another group or version, and the conversion between their kinds.
 */
export interface ObjectInterfaces {
  /** Every served resource whose objects are those of `resource` (itself included) and that serves `subresource`. */
  equivalentResourcesFor(resource: GroupVersionResource, subresource: string): GroupVersionResource[];
  /** The kind `resource` (or its `subresource`) speaks; undefined when it is not served. */
  kindFor(resource: GroupVersionResource, subresource: string): GroupVersionKind | undefined;
  /** `obj`, an object of kind `from`, as an object of kind `to` (a copy; `obj` is left alone). Throws when there is no conversion. */
  convert(obj: AdmissionObject, from: GroupVersionKind, to: GroupVersionKind): AdmissionObject;
  /**
   * `obj` decoded as `kind` decodes a request body: unknown fields dropped, types checked, defaults
   * applied (a webhook's patched object); throws when it cannot be an object of that kind.
   */
  decode(obj: AdmissionObject, kind: GroupVersionKind): AdmissionObject;
  /**
   * The served resources of `kind` in `group`, of `version` or of any version when it is ''
   * (upstream's RESTMapper.RESTMappings); empty when none serves it.
   */
  restMappings(group: string, kind: string, version: string): RESTMapping[];
}

/** A resource serving a kind, and whether its objects live in namespaces. */
export interface RESTMapping extends GroupVersionResource {
  namespaced: boolean;
}

/** Where admission reports its latencies and webhook outcomes (upstream's admission metrics). */
export interface AdmissionObserver {
  /** One phase of the chain: type `admit` (mutating) or `validate`. */
  step(type: 'admit' | 'validate', operation: Operation, rejected: boolean, seconds: number): void;
  /** One plug-in's run in a phase. */
  controller(name: string, type: 'admit' | 'validate', operation: Operation, rejected: boolean, seconds: number): void;
  /** One webhook call: type `admit` (mutating) or `validating`; `code` the HTTP status, 0 when none. */
  webhook(name: string, type: 'admit' | 'validating', operation: Operation, rejected: boolean, code: number, seconds: number): void;
  /** A request a webhook made fail. */
  webhookRejection(name: string, type: 'admit' | 'validating', operation: Operation, errorType: WebhookRejectionErrorType, code: number): void;
  /** A webhook call failure let through by failurePolicy Ignore. */
  webhookFailOpen(name: string, type: 'admit' | 'validating'): void;
}

/** Why a webhook made a request fail (the error_type label of apiserver_admission_webhook_rejection_count). */
export type WebhookRejectionErrorType = 'calling_webhook_error' | 'apiserver_internal_error' | 'no_error';

/** A resource permission asked of the server's authorizer on a user's behalf (a CSR signer's approve or sign). */
export interface AuthorizationCheck {
  verb: string;
  apiGroup: string;
  /** The version asked about; '' (or absent) when any. */
  apiVersion?: string;
  resource: string;
  name?: string;
  namespace?: string;
  subresource?: string;
}

/**
 * Asks the server's authorizer whether `user` may do `check`. A narrow callback rather than the
 * authorizer itself, so admission does not depend on pkg/authorization. Never rejects: an
 * authorizer that fails to decide answers not allowed, with its evaluation error.
 */
export type AuthorizeFunc = (user: UserInfo, check: AuthorizationCheck) => Promise<{ allowed: boolean; reason?: string; evaluationError?: string }>;

/** What the server gives plug-ins when it makes them (upstream's plug-in initializers). */
export interface PluginDeps {
  readonly domain: ApiDomain;
  /** The served kinds; undefined where a test gives none (webhooks then match only the request's own resource). */
  readonly objects?: ObjectInterfaces;
  /** Where latencies and webhook outcomes are reported; undefined where nothing records them. */
  readonly metrics?: AdmissionObserver;
  /**
   * The cache of `<group>` / `<resource>` (core group ''); a resource the server does not serve
   * (--runtime-config) has an always-empty one; undefined only where a test gives no lister.
   * Asking for a cache starts it; the server serves only once every cache is synced.
   */
  lister(group: string, resource: string): ObjectLister | undefined;
  /**
   * The cache of `<group>` / `<resource>` for resources only known while serving (a policy's
   * paramKind, a custom resource's included): started on first use, `synced` resolving once it
   * holds a complete list; objects read in `version` where the resource is served in several
   * (custom resources); undefined when the server does not serve the resource (or a test gives none).
   */
  informer?(group: string, resource: string, version: string): { lister: ObjectLister; hasSynced(): boolean; synced: Promise<void> } | undefined;
  /** The server's authorizer (upstream's WantsAuthorizer); undefined where a test gives none. */
  readonly authorize?: AuthorizeFunc;
  /**
   * Creates an object in `<group>` / `<resource>` as the server itself (upstream's loopback client):
   * the registry's rules apply, admission does not. Rejects with the registry's StatusError (409
   * AlreadyExists, ...). Undefined where a test gives none.
   */
  readonly create?: (group: string, resource: string, namespace: string, object: ObjectWithMeta) => Promise<void>;
  /** Where plug-ins log what upstream's plug-ins log (a webhook failing open, a denial, a deprecation); undefined where a test gives none. */
  readonly logger?: Logger;
}
