// The verbs of one resource: each decodes and checks its input, calls the registry store and
// writes the answer with upstream's status codes.
import type { Request, Response } from 'express';
import type { DeleteOptions, Status } from '../../api/meta/v1/types.js';
import { applyJSONPatch } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { PatchError } from '../patch/patch-error.js';
import { applyStrategicMergePatch, StrategicMergePatchError } from '../patch/strategic-merge-patch.js';
import { customPatchMediaTypes } from './openapi/media-types.js';
import { DecodeError, parseBody, pruneObject, type Decoded, type ObjectDecoder, type ParsedBody } from '../runtime/decoder.js';
import { MAX_NESTING_DEPTH, valueTooDeep, type NumberLiteral } from '../runtime/body-scan.js';
import {
  newBadRequest, newForbidden, newInternalError, newInvalid, newNotFound, newRequestEntityTooLarge, newUnsupportedMediaType, StatusError,
} from '../runtime/errors.js';
import { formatPath } from '../runtime/number-check.js';
import { decodeEnvelope } from '../runtime/protobuf/envelope.js';
import { ProtobufDecodeError } from '../runtime/protobuf/errors.js';
import { forbidden, required, type FieldError } from '../runtime/field-errors.js';
import type { ResourceInfo } from '../runtime/scheme.js';
import type { SchemaValidator } from '../runtime/schema-validator.js';
import type { Logger } from '../log/logger.js';
import { getScale, updateScale } from '../registry/generic/scale.js';
import type { ListParams, Store } from '../registry/generic/store.js';
import type { StoredObject } from '../storage/interface.js';
import { checkPatchedTypeMeta, invalidPatch, type KindRegistry } from './patched-object.js';
import { checkDeleteOptions, decodeDeleteOptionsBody, deleteOptionsFromQuery, type MessageDecoder } from './delete-options.js';
import { bodyFormat, patchType, type PatchType } from './negotiation.js';
import { checkListSendsNoInitialEvents } from './list-options.js';
import { Query } from './query.js';
import type { RequestInfo } from './request-info.js';
import { requestUser } from './request-user.js';
import { requestSignal } from './request-timeout.js';
import { objectRefOf, requestAudit } from './request-audit.js';
import { addWarnings } from './responses.js';
import type { UserInfo } from '../runtime/user.js';
import type { ProtobufEncoder, ResponseWriter } from './output.js';
import { WriteAdmission, type WriteCheck } from './write-admission.js';
import type { AdmissionChain } from '../admission/chain.js';
import type { Authorizer } from '../authorization/authorizer.js';
import { subresourceView } from '../registry/generic/strategy.js';
import { checkRequestManagedFields, managerOrUserAgent, RequestFieldManager } from './field-manager.js';
import { copyObject } from '../runtime/copy.js';

/** Protobuf encoding of responses and decoding of request bodies. */
export interface ProtobufCodecLike extends ProtobufEncoder, MessageDecoder {
  decodeObject(info: ResourceInfo, bytes: Buffer): Record<string, unknown>;
}

export interface HandlerContext {
  decoder: ObjectDecoder;
  schemas: SchemaValidator;
  protobuf: ProtobufCodecLike;
  /** Where requests that outlive their timeout are reported. */
  logger?: Logger;
  /**
   * The checks a write of a resource must pass beyond its own validation and admission, with the
   * writer known (RBAC's escalation prevention): the registry calls them before it writes.
   */
  writeChecks?: (resource: ResourceInfo) => WriteCheck | undefined;
  /** The admission plug-ins every create, update and delete goes through. */
  admission?: AdmissionChain;
  /** Asked whether an apply that creates its object may (it needs create besides patch). */
  authorizer?: Authorizer;
  /** The kinds each group/version serves, which decide what a patch that changes an object's apiVersion or kind meets. */
  scheme?: KindRegistry;
}

/** The field manager of a write of `r`'s object through `subresource`, named by fieldManager or the User-Agent. */
function fieldManager(r: KindRequest, subresource = r.info.subresource): RequestFieldManager {
  return new RequestFieldManager(r.resource, subresource, managerOrUserAgent(r.query.str('fieldManager'), r.req.headers['user-agent']));
}

/** `next` with managedFields recorded for an update over `current` through the request's sub-resource (or a create). */
function recordWrite(r: ResourceRequest, current: StoredObject | null, next: StoredObject): StoredObject {
  const sub = r.info.subresource;
  if (sub && current) {
    // Only what the sub-resource takes from the request counts as changed.
    const view = subresourceView(sub, next, current);
    const tracked = fieldManager(r).update(current, view);
    return { ...next, metadata: { ...next.metadata, managedFields: tracked.metadata.managedFields } } as StoredObject;
  }
  return fieldManager(r).update(current, next);
}

/** The admission of this write request, speaking `kind` (the resource's, or a sub-resource's own). */
function writeAdmission(ctx: HandlerContext, r: KindRequest, dryRun: boolean, optionsKind: OptionsKind | 'DeleteOptions' | 'CONNECT', options: Record<string, unknown> = {}, kind: ResourceInfo = r.resource): WriteAdmission {
  const fieldManager = r.query.str('fieldManager');
  const admission = new WriteAdmission({
    chain: ctx.admission,
    check: ctx.writeChecks?.(r.resource),
    info: r.info,
    kind,
    user: requestUser(r.res),
    dryRun,
    options: {
      ...options,
      // Upstream admits a patch as the update it becomes (patchToUpdateOptions).
      kind: optionsKind === 'PatchOptions' ? 'UpdateOptions' : optionsKind,
      apiVersion: `${r.resource.domain.metaGroup}/v1`,
      ...(dryRun ? { dryRun: ['All'] } : {}),
      ...(fieldManager && optionsKind !== 'DeleteOptions' ? { fieldManager } : {}),
    },
    warn: (text) => addWarnings(r.res, [text]),
  });
  // Read when the request ends, answered or refused, so the event holds what every phase recorded.
  requestAudit(r.res)?.addAnnotationSource((level) => admission.annotations(level));
  return admission;
}

/** Admission of a CONNECT request (pods/exec, ...): both phases on its options; returns them as admitted. */
export function admitConnect(ctx: HandlerContext, r: KindRequest, options: Record<string, unknown>): Promise<Record<string, unknown>> {
  return writeAdmission(ctx, r, false, 'CONNECT').admitConnect(options);
}

/** The decoded request body as the audit event records it. */
function auditRequestObject(r: KindRequest, obj: unknown): void {
  requestAudit(r.res)?.logRequestObject(obj, objectRefOf(r.info));
}

/** Upstream's cap on the operations of one JSON patch. */
const MAX_JSON_PATCH_OPERATIONS = 10_000;

type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

/** A request for one resource (or the kind one of its sub-resources speaks), before any store is involved. */
export interface KindRequest {
  req: Request;
  res: Response;
  info: RequestInfo;
  resource: ResourceInfo;
  query: Query;
  out: ResponseWriter;
}

export interface ResourceRequest extends KindRequest {
  store: Store;
}

/**
 * What a virtual kind's create is given: a review (TokenReview, SelfSubjectReview) or a
 * sub-resource speaking its own kind (serviceaccounts/token), answered by the server, never stored.
 */
export interface VirtualRequest {
  /** The decoded request body. */
  obj: StoredObject;
  user: UserInfo | undefined;
  namespace: string;
  /** The parent's name, for a sub-resource. */
  name: string;
  dryRun: boolean;
  /** The parent's store, for a sub-resource. */
  parent?: Store;
  /** Adds a Warning header to the answer. */
  warn(text: string): void;
}

/** Answers a virtual kind's create with the object to return (its status filled in). */
export type VirtualHandler = (req: VirtualRequest) => Promise<StoredObject>;

function body(req: Request): Buffer {
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
}

/** Decodes a create/update body into an object, applying the fieldValidation level to unknown and duplicate fields. */
function decodeObject(ctx: HandlerContext, r: KindRequest, optionsKind: OptionsKind): StoredObject {
  return decodeObjectAs(ctx, r, optionsKind, () => r.resource).obj;
}

/**
 * Decodes the body as the kind `infoFor` picks by the apiVersion the body names (its JSON field,
 * or the protobuf envelope's), so a kind may also be spoken under another group's name.
 */
function decodeObjectAs(ctx: HandlerContext, r: KindRequest, optionsKind: OptionsKind, infoFor: (apiVersion: unknown) => ResourceInfo): { obj: StoredObject; info: ResourceInfo } {
  checkFieldManager(r, optionsKind);
  const level = r.query.fieldValidation();
  const raw = body(r.req);
  if (raw.length === 0) throw newBadRequest('the request body is empty: an object is required');
  const format = bodyFormat(r.req.headers['content-type'], r.resource.domain);
  // Custom resources (seed 000, 2.6) and CustomResourceDefinitions are spoken in JSON and YAML only.
  if (format === 'protobuf' && !r.resource.protobuf) throw newUnsupportedMediaType(['application/json', 'application/yaml']);
  let info = r.resource;
  let parsed: ParsedBody;
  if (format === 'protobuf') {
    info = infoFor(envelopeAPIVersion(raw));
    parsed = { value: decodeProtobuf(ctx, info, raw), format: 'json', duplicates: [], numbers: [] };
  } else {
    parsed = parseBody(raw, format, level !== 'Ignore');
    info = infoFor((parsed.value as { apiVersion?: unknown } | null)?.apiVersion);
  }
  const decoded = ctx.decoder.decode(info, parsed.value, parsed.numbers);
  applyFieldValidation(r, level, parsed, decoded.unknownFields);
  return { obj: decoded.obj, info };
}

/** The apiVersion a protobuf body's envelope names, or undefined when it cannot be read (decoding reports why). */
function envelopeAPIVersion(raw: Buffer): string | undefined {
  try {
    return decodeEnvelope(raw).apiVersion;
  } catch {
    return undefined;
  }
}

/**
 * A kind of one of our domain's groups spoken under upstream's group name (authentication.k8s.io
 * for authentication.orch.io): stock clients such as `kubectl create token` send and expect that
 * name, whatever our domain. Undefined when the kind is already upstream's.
 */
function upstreamAlias(info: ResourceInfo): ResourceInfo | undefined {
  const suffix = `.${info.domain.name}`;
  if (info.domain.name === 'k8s.io' || !info.group.endsWith(suffix)) return undefined;
  const group = `${info.group.slice(0, -suffix.length)}.k8s.io`;
  return { ...info, group, apiVersion: `${group}/${info.version}` };
}

/** fieldManager of a write, validated as upstream's ValidateFieldManager does (422 on the options kind). */
function checkFieldManager(r: KindRequest, optionsKind: OptionsKind): void {
  const errs = r.query.fieldManagerErrors();
  if (errs.length > 0) throw newInvalid(optionsKind, r.resource.domain.metaGroup, '', errs);
}

/**
 * PatchOptions as upstream's ValidatePatchOptions checks them (422 on PatchOptions): `force` only
 * for an apply, `fieldManager` required for one, and the fieldManager's own rules.
 */
function checkPatchOptions(r: KindRequest, type: PatchType): void {
  const errs: FieldError[] = [];
  if (type !== 'apply') {
    if (r.query.has('force')) errs.push(forbidden('force', 'may not be specified for non-apply patch'));
  } else if (!r.query.str('fieldManager')) {
    errs.push(required('fieldManager', 'is required for apply patch'));
  }
  errs.push(...r.query.fieldManagerErrors());
  if (errs.length > 0) throw newInvalid('PatchOptions', r.resource.domain.metaGroup, '', errs);
}

/** Ignore drops unknown and duplicate fields silently, Warn adds one Warning each, Strict answers 400 naming all. */
function applyFieldValidation(r: KindRequest, level: 'Ignore' | 'Warn' | 'Strict', parsed: ParsedBody, unknownFields: string[]): void {
  if (level === 'Ignore') return;
  if (level === 'Warn') {
    addWarnings(r.res, [...parsed.duplicates, ...unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`)]);
    return;
  }
  const strict = strictDecodingError(parsed, unknownFields);
  if (strict) throw newBadRequest(strict);
}

/** Upstream's strict decoding error naming the body's duplicate and unknown fields; undefined when there are none. */
function strictDecodingError(parsed: ParsedBody, unknownFields: string[]): string | undefined {
  const unknown = unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`);
  if (parsed.duplicates.length === 0 && unknown.length === 0) return undefined;
  const duplicates = parsed.format === 'yaml' && parsed.duplicates.length > 0
    ? [`yaml: unmarshal errors:\n  ${parsed.duplicates.join('\n  ')}`]
    : parsed.duplicates;
  return `strict decoding error: ${[...duplicates, ...unknown].join(', ')}`;
}

function listParams(q: Query, metaGroup: string): ListParams {
  checkListSendsNoInitialEvents(q, metaGroup);
  const p: ListParams = {};
  const set = <K extends keyof ListParams>(k: K, v: ListParams[K] | undefined) => {
    if (v !== undefined) p[k] = v;
  };
  set('labelSelector', q.str('labelSelector'));
  set('fieldSelector', q.str('fieldSelector'));
  set('continue', q.str('continue') || undefined);
  set('resourceVersion', q.str('resourceVersion'));
  set('resourceVersionMatch', q.str('resourceVersionMatch') || undefined);
  // timeoutSeconds is part of the same ListOptions upstream decodes: a malformed one fails the list too.
  const { limit } = q.listIntegers();
  if (limit !== undefined && limit < 0) throw newBadRequest('limit: Invalid value: must be greater than or equal to 0');
  set('limit', limit);
  return p;
}

function checkNamespace(r: ResourceRequest, obj: StoredObject): void {
  if (!r.resource.namespaced) return;
  const ns = obj.metadata.namespace;
  if (ns && ns !== r.info.namespace) {
    throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
}

export async function getResource(r: ResourceRequest): Promise<void> {
  const obj = await r.store.get(r.info.namespace, r.info.name, r.query.str('resourceVersion'));
  r.out.object(200, r.resource, obj);
}

export async function listResource(r: ResourceRequest): Promise<void> {
  const list = await r.store.list(r.info.namespace, listParams(r.query, r.resource.domain.metaGroup));
  r.out.list(200, r.resource, list);
}

export async function createResource(ctx: HandlerContext, r: ResourceRequest): Promise<void> {
  const dryRun = r.query.dryRun();
  const decoded = decodeObject(ctx, r, 'CreateOptions');
  auditRequestObject(r, decoded);
  checkNamespace(r, decoded);
  checkRequestManagedFields(decoded);
  const admission = writeAdmission(ctx, r, dryRun, 'CreateOptions');
  const obj = await admission.mutate(recordWrite(r, null, decoded), null);
  const created = await r.store.create(r.info.namespace, obj, { dryRun, validate: admission.validate, user: requestUser(r.res), signal: requestSignal(r.res) });
  r.out.object(201, r.resource, created);
}

export async function updateResource(ctx: HandlerContext, r: ResourceRequest): Promise<void> {
  const dryRun = r.query.dryRun();
  const obj = decodeObject(ctx, r, 'UpdateOptions');
  auditRequestObject(r, obj);
  if (obj.metadata.name !== r.info.name) {
    throw newBadRequest(`the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${r.info.name})`);
  }
  checkNamespace(r, obj);
  checkRequestManagedFields(obj);
  const admission = writeAdmission(ctx, r, dryRun, 'UpdateOptions');
  // Each attempt starts from its own copy of the decoded object (admission and the field manager
  // change it; a retried attempt needs the original), and the store prepares that copy in place.
  const { object, created } = await r.store.update(r.info.namespace, r.info.name, async (current) => admission.mutate(recordWrite(r, current, copyObject(obj)), current), {
    owned: true,
    dryRun,
    validate: admission.validate,
    user: requestUser(r.res),
    signal: requestSignal(r.res),
    ...(r.info.subresource ? { subresource: r.info.subresource } : {}),
  });
  r.out.object(created ? 201 : 200, r.resource, object);
}

/**
 * A PATCH request read and checked once: `apply` patches a current object of the request's kind
 * (run inside the store's retry loop), `done` adds the Warn-level warnings after the write.
 */
function readPatch(ctx: HandlerContext, r: ResourceRequest): { apply(current: StoredObject): StoredObject; done(): void } {
  const type = patchType(r.req.headers['content-type']);
  // Custom resources have no Go types to carry strategic merge patch's markers.
  if (type === 'strategic' && r.resource.custom) {
    throw newUnsupportedMediaType(customPatchMediaTypes);
  }
  checkPatchOptions(r, type);
  const level = r.query.fieldValidation();
  if (type === 'apply') throw newUnsupportedMediaType(['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']);
  const raw = body(r.req);
  if (raw.length === 0) throw newBadRequest('the request body is empty: a patch is required');
  const parsed = parseBody(raw, 'json', level !== 'Ignore' && type !== 'json', 'patch');
  const patch = parsed.value;
  requestAudit(r.res)?.logRequestPatch(patch);
  if (type !== 'json' && (typeof patch !== 'object' || patch === null || Array.isArray(patch))) {
    throw newBadRequest(`a ${type === 'merge' ? 'merge' : 'strategic merge'} patch must be a JSON object`);
  }
  if (type === 'json' && Array.isArray(patch) && patch.length > MAX_JSON_PATCH_OPERATIONS) {
    throw newRequestEntityTooLarge(`Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`);
  }
  // A number the patch cannot carry exactly is refused wherever it would land.
  const inexact = parsed.numbers.find((n) => n.inexact);
  if (inexact) throw newBadRequest(`invalid JSON patch: ${inexactMessage(inexact)}`);
  // A merge patch puts every value at its own path in the result, so its literals can be checked there.
  const literals = type === 'merge' ? parsed.numbers : [];
  let unknownFields: string[] = [];
  return {
    apply(current) {
      const patched = applyPatch(type, current, patch, r.resource);
      // A JSON patch can nest deeper than its own text (a value added at a deep path, copies of copies).
      if (valueTooDeep(patched)) {
        throw new StatusError(422, 'Invalid', `the patch could not be applied: the patched object exceeds the max depth of ${MAX_NESTING_DEPTH}`);
      }
      checkPatchedTypeMeta({
        type, patched, patch, info: r.resource, name: r.info.name, level, ...(ctx.scheme ? { kinds: ctx.scheme } : {}), warn: (texts) => addWarnings(r.res, texts),
      });
      // A patched object that does not decode as the kind is upstream's 422 on `patch`.
      let decoded: Decoded;
      try {
        decoded = ctx.decoder.decode(r.resource, patched, literals);
      } catch (e) {
        throw e instanceof DecodeError ? invalidPatch(type, patched, patch, e.why) : e;
      }
      unknownFields = decoded.unknownFields;
      // Strict must reject before the write; warnings are added once, after it.
      const strict = level === 'Strict' ? strictDecodingError(parsed, unknownFields) : undefined;
      if (strict) throw invalidPatch(type, patched, patch, strict);
      if (decoded.obj.metadata.name !== r.info.name) {
        throw newBadRequest(`the name of the object (${decoded.obj.metadata.name ?? ''}) does not match the name on the URL (${r.info.name})`);
      }
      checkNamespace(r, decoded.obj);
      return decoded.obj;
    },
    done() {
      if (level === 'Warn') applyFieldValidation(r, level, parsed, unknownFields);
    },
  };
}

export async function patchResource(ctx: HandlerContext, r: ResourceRequest): Promise<void> {
  if (patchType(r.req.headers['content-type']) === 'apply') return applyResource(ctx, r);
  const dryRun = r.query.dryRun();
  const patch = readPatch(ctx, r);
  const admission = writeAdmission(ctx, r, dryRun, 'PatchOptions');
  const { object } = await r.store.update(r.info.namespace, r.info.name, async (current) => {
    if (!current) throw newNotFound(r.resource.groupResource, r.info.name);
    const patched = patch.apply(current);
    checkRequestManagedFields(patched);
    return admission.mutate(recordWrite(r, current, patched), current);
  }, { dryRun, validate: admission.validate, signal: requestSignal(r.res), ...(r.info.subresource ? { subresource: r.info.subresource } : {}) });
  patch.done();
  r.out.object(200, r.resource, object);
}

/**
 * Server-side apply (spec 4.9): the YAML or JSON configuration is merged into the object (created
 * when missing, which needs the create permission too), defaulted, admitted as a patch and
 * written; conflicts with other managers are 409 unless forced.
 */
async function applyResource(ctx: HandlerContext, r: ResourceRequest): Promise<void> {
  const dryRun = r.query.dryRun();
  const { applied, force, done } = readApplyConfig(r, r.resource);
  const manager = fieldManager(r);
  const admission = writeAdmission(ctx, r, dryRun, 'PatchOptions');
  let checkedCreate = false;
  const { object, created } = await r.store.update(r.info.namespace, r.info.name, async (current) => {
    if (!current) {
      if (r.info.subresource) throw newNotFound(r.resource.groupResource, r.info.name);
      if (!checkedCreate) await authorizeCreate(ctx, r);
      checkedCreate = true;
    }
    const merged = manager.apply(current, structuredClone(applied), force);
    // Defaults fill what the apply left out or removed (spec 4.9.5), as after any decode.
    const { managedFields, ...restMeta } = merged.metadata;
    const decoded = ctx.decoder.decode(r.resource, { ...merged, metadata: restMeta }).obj;
    if (managedFields !== undefined) decoded.metadata.managedFields = managedFields;
    if (decoded.metadata.name !== r.info.name) {
      throw newBadRequest(`the name of the object (${decoded.metadata.name ?? ''}) does not match the name on the URL (${r.info.name})`);
    }
    checkNamespace(r, decoded);
    return admission.mutate(decoded, current);
  }, { dryRun, validate: admission.validate, user: requestUser(r.res), signal: requestSignal(r.res), forceAllowCreate: true, ...(r.info.subresource ? { subresource: r.info.subresource } : {}) });
  done();
  r.out.object(created ? 201 : 200, r.resource, object);
}

/**
 * The configuration of an apply of `info`'s kind, read and checked: YAML (or JSON), an object
 * naming the kind and apiVersion of the URL, its unknown fields handled by the fieldValidation
 * level (Strict refuses now; `done` adds Warn's warnings after the write).
 */
function readApplyConfig(r: KindRequest, info: ResourceInfo): { applied: Record<string, unknown>; force: boolean; level: 'Ignore' | 'Warn' | 'Strict'; done(): void } {
  checkPatchOptions(r, 'apply');
  const force = r.query.bool('force');
  const level = r.query.fieldValidation();
  const raw = body(r.req);
  if (raw.length === 0) throw newBadRequest('the request body is empty: a patch is required');
  const parsed = parseBody(raw, 'yaml', level !== 'Ignore', 'object');
  requestAudit(r.res)?.logRequestPatch(parsed.value);
  const config = parsed.value;
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw newBadRequest(`error decoding YAML: the applied configuration must be an object, got ${Array.isArray(config) ? 'a list' : config === null ? 'null' : typeof config}`);
  }
  const applied = config as Record<string, unknown>;
  if (applied.apiVersion !== info.apiVersion) {
    throw newBadRequest(`Incorrect version specified in apply patch. Specified patch version: ${typeof applied.apiVersion === 'string' ? applied.apiVersion : ''}, expected: ${info.apiVersion}`);
  }
  if (applied.kind !== info.kind) {
    throw newBadRequest(`Incorrect kind specified in apply patch. Specified patch kind: ${typeof applied.kind === 'string' ? applied.kind : ''}, expected: ${info.kind}`);
  }
  const meta = applied.metadata;
  if (meta !== undefined && meta !== null && (typeof meta !== 'object' || Array.isArray(meta))) throw newBadRequest('error decoding YAML: metadata must be an object');
  // Unknown fields are refused (Strict), reported (Warn) or dropped (Ignore), as for every write.
  const decodeErrors: string[] = [];
  const unknownFields = pruneObject(info, applied, decodeErrors);
  if (decodeErrors.length > 0) throw newBadRequest(decodeErrors.join('; '));
  if (level === 'Strict') applyFieldValidation(r, level, parsed, unknownFields);
  return { applied, force, level, done: () => level === 'Warn' && applyFieldValidation(r, level, parsed, unknownFields) };
}

/** An apply creating its object needs `create` as well as `patch`: upstream's 403 when the authorizers do not allow it. */
async function authorizeCreate(ctx: HandlerContext, r: ResourceRequest): Promise<void> {
  if (!ctx.authorizer) return;
  const { info } = r;
  const decision = await ctx.authorizer.authorize({
    user: requestUser(r.res), verb: 'create', namespace: info.namespace, apiGroup: info.apiGroup, apiVersion: info.apiVersion,
    resource: info.resource, subresource: info.subresource, name: info.name, isResourceRequest: true, path: info.path,
  });
  if (decision.decision === 'allow') return;
  if (decision.evaluationError) throw newInternalError(new Error(decision.evaluationError));
  throw newForbidden(r.resource.groupResource, info.name, decision.reason);
}

function inexactMessage(n: NumberLiteral): string {
  return `${formatPath(n.path) || '<root>'}: the number ${n.literal} cannot be represented exactly`;
}

/** The request as one for the autoscaling/v1 Scale of its object: decoded, patched and written as a Scale. */
function asScaleRequest(r: ResourceRequest): ResourceRequest {
  const info = r.resource.subresourceKinds.scale;
  if (!info) throw newNotFound(r.resource.groupResource, r.info.name);
  return { ...r, resource: info };
}

/** Records a write through /scale on the parent object, under the manager's `scale` entry. */
function recordScale(r: ResourceRequest): (obj: StoredObject, current: StoredObject) => StoredObject {
  const manager = fieldManager(r, 'scale');
  return (obj, current) => manager.update(current, obj);
}

export async function getScaleResource(r: ResourceRequest): Promise<void> {
  const s = asScaleRequest(r);
  s.out.object(200, s.resource, await getScale(r.store, r.info.namespace, r.info.name));
}

export async function updateScaleResource(ctx: HandlerContext, r: ResourceRequest): Promise<void> {
  const s = asScaleRequest(r);
  const dryRun = r.query.dryRun();
  const wanted = decodeObject(ctx, s, 'UpdateOptions');
  auditRequestObject(s, wanted);
  const admission = writeAdmission(ctx, s, dryRun, 'UpdateOptions');
  const scale = await updateScale(r.store, r.info.namespace, r.info.name, async (current) => admission.admitWhole(structuredClone(wanted), current), { dryRun }, recordScale(r));
  s.out.object(200, s.resource, scale);
}

export async function patchScaleResource(ctx: HandlerContext, r: ResourceRequest): Promise<void> {
  const s = asScaleRequest(r);
  const dryRun = r.query.dryRun();
  if (patchType(r.req.headers['content-type']) === 'apply') return applyScaleResource(ctx, r, s, dryRun);
  const patch = readPatch(ctx, s);
  const admission = writeAdmission(ctx, s, dryRun, 'PatchOptions');
  const scale = await updateScale(r.store, r.info.namespace, r.info.name, async (current) => admission.admitWhole(patch.apply(current), current), { dryRun }, recordScale(r));
  patch.done();
  s.out.object(200, s.resource, scale);
}

/**
 * Apply of a Scale: its spec.replicas is applied to the parent as the parent's own configuration
 * under the manager's `scale` entry, so it conflicts with, and is owned apart from, the object's
 * appliers and updaters.
 */
async function applyScaleResource(ctx: HandlerContext, r: ResourceRequest, s: ResourceRequest, dryRun: boolean): Promise<void> {
  const { applied, force, done } = readApplyConfig(s, s.resource);
  const adapter = r.resource.scale!;
  const meta = (applied.metadata ?? {}) as { name?: unknown };
  if (meta.name !== r.info.name) throw newBadRequest(`the name of the object (${typeof meta.name === 'string' ? meta.name : ''}) does not match the name on the URL (${r.info.name})`);
  const replicas = (applied.spec as { replicas?: unknown } | undefined)?.replicas;
  if (replicas !== undefined && (typeof replicas !== 'number' || !Number.isInteger(replicas))) throw newBadRequest('Scale.spec.replicas must be an integer');
  const parentConfig: Record<string, unknown> = { apiVersion: r.resource.apiVersion, kind: r.resource.kind, metadata: { name: r.info.name }, spec: {} };
  if (replicas !== undefined) adapter.setSpecReplicas(parentConfig, replicas);
  else delete parentConfig.spec;
  const manager = fieldManager(r, 'scale');
  const admission = writeAdmission(ctx, s, dryRun, 'PatchOptions');
  const scale = await updateScale(r.store, r.info.namespace, r.info.name, async (current) => {
    const wanted = structuredClone(current);
    (wanted.spec as Record<string, unknown>).replicas = replicas ?? (current.spec as { replicas?: number }).replicas;
    return admission.admitWhole(wanted, current);
  }, { dryRun }, (obj, current) => {
    const merged = manager.apply(current, parentConfig, force);
    return { ...obj, metadata: { ...obj.metadata, managedFields: merged.metadata.managedFields } } as StoredObject;
  });
  done();
  s.out.object(200, s.resource, scale);
}

/** A protobuf body of `info`'s kind as the JSON-shaped object the decoder takes; bad bytes are a 400. */
function decodeProtobuf(ctx: HandlerContext, info: ResourceInfo, raw: Buffer): Record<string, unknown> {
  const cannot = (why: string) => newBadRequest(`${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: ${why}`);
  let value: Record<string, unknown>;
  try {
    value = ctx.protobuf.decodeObject(info, raw);
  } catch (e) {
    if (e instanceof ProtobufDecodeError) throw cannot(e.message);
    throw e;
  }
  // Free-form fields (managedFields' fieldsV1) carry JSON inside the protobuf, nested as deep as it likes.
  if (valueTooDeep(value)) throw cannot(`exceeded max depth of ${MAX_NESTING_DEPTH}`);
  return value;
}

/** Applies a patch of the given type; a malformed patch is 400, one that does not apply is 422. */
function applyPatch(type: PatchType, current: StoredObject, patch: unknown, resource: ResourceInfo): unknown {
  try {
    switch (type) {
      case 'json': return applyJSONPatch(current, patch);
      case 'merge': return applyMergePatch(current, patch);
      case 'strategic': return applyStrategicMergePatch(current, patch, resource.schema);
      case 'apply': throw newBadRequest('an apply patch is not applied as a patch');
    }
  } catch (e) {
    if (e instanceof PatchError && e.kind === 'failed') throw new StatusError(422, 'Invalid', `the patch could not be applied: ${e.message}`);
    if (e instanceof PatchError || e instanceof StrategicMergePatchError) throw newBadRequest(`the patch is malformed: ${e.message}`);
    throw e;
  }
}

/**
 * The request's DeleteOptions (from its body in any media type a write accepts, else from its
 * query, as upstream reads them), validated, and whether the delete is a dry run.
 */
function deleteOptions(ctx: HandlerContext, r: ResourceRequest): { options: DeleteOptions; dryRun: boolean } {
  const raw = body(r.req);
  const domain = r.resource.domain;
  let options: DeleteOptions;
  if (raw.length > 0) {
    const decoded = decodeDeleteOptionsBody(raw, r.req.headers['content-type'], domain, ctx.schemas, ctx.protobuf);
    options = decoded.options;
    auditRequestObject(r, { kind: 'DeleteOptions', apiVersion: decoded.apiVersion, ...options });
  } else {
    options = deleteOptionsFromQuery(r.query);
  }
  checkDeleteOptions(options, domain);
  return { options, dryRun: options.dryRun?.includes('All') ?? false };
}

export async function deleteResource(ctx: HandlerContext, r: ResourceRequest): Promise<void> {
  const { options, dryRun } = deleteOptions(ctx, r);
  const admission = writeAdmission(ctx, r, dryRun, 'DeleteOptions', { ...options });
  await admission.mutateDelete();
  const { object, deleted } = await r.store.delete(r.info.namespace, r.info.name, options, { dryRun, validate: admission.validateDelete, signal: requestSignal(r.res) });
  if (!deleted) {
    // Still pending its finalizers: upstream answers 202 only to a client that asked for cascading
    // deletion with the old orphanDependents=false, and 200 with the object to everyone else.
    r.out.object(options.orphanDependents === false ? 202 : 200, r.resource, object);
    return;
  }
  if (r.store.strategy.returnDeletedObject) {
    r.out.object(200, r.resource, object);
    return;
  }
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name: r.info.name, group: r.resource.group, kind: r.resource.resource, ...(object.metadata.uid ? { uid: object.metadata.uid } : {}) },
  };
  r.out.status(200, status);
}

/** POST of a virtual kind, or of a sub-resource speaking its own kind: decoded, answered by `handler` with 201. */
export async function createVirtual(ctx: HandlerContext, r: KindRequest, handler: VirtualHandler, parent?: Store): Promise<void> {
  const dryRun = r.query.dryRun();
  const alias = upstreamAlias(r.resource);
  // Answered in the group the request was spoken in, so a client decodes its own type.
  const decoded = decodeObjectAs(ctx, r, 'CreateOptions', (apiVersion) => (alias && apiVersion === alias.apiVersion ? alias : r.resource));
  const info = decoded.info;
  auditRequestObject(r, decoded.obj);
  const obj = await writeAdmission(ctx, r, dryRun, 'CreateOptions', {}, r.resource).admitWhole(decoded.obj, null);
  const answer = await handler({
    obj, user: requestUser(r.res), namespace: r.info.namespace, name: r.info.name, dryRun, ...(parent ? { parent } : {}),
    warn: (text) => addWarnings(r.res, [text]),
  });
  // Some sub-resources (pods/binding, pods/eviction) answer with a Status, 201 unless it says otherwise.
  if (answer.kind === 'Status' && answer.apiVersion === 'v1') {
    const status = answer as unknown as Status;
    r.out.status(status.code || 201, { ...status, code: status.code || 201 });
    return;
  }
  r.out.object(201, info, { ...answer, apiVersion: info.apiVersion });
}

export async function deleteCollection(ctx: HandlerContext, r: ResourceRequest): Promise<void> {
  const { options, dryRun } = deleteOptions(ctx, r);
  const admission = writeAdmission(ctx, r, dryRun, 'DeleteOptions', { ...options });
  await admission.mutateDelete('');
  const list = await r.store.deleteCollection(r.info.namespace, listParams(r.query, r.resource.domain.metaGroup), options, { dryRun, validate: admission.validateDelete, signal: requestSignal(r.res) });
  r.out.list(200, r.resource, list);
}

