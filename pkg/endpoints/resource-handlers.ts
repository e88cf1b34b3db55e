// The verbs of one resource: each decodes and checks its input, calls the registry store and
// writes the answer with upstream's status codes.
import type { Request, Response } from 'express';
import { DeleteOptions as DeleteOptionsSchema, type DeleteOptions, type Status } from '../../api/meta/v1/types.js';
import { applyJSONPatch } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { PatchError } from '../patch/patch-error.js';
import { applyStrategicMergePatch, StrategicMergePatchError } from '../patch/strategic-merge-patch.js';
import { parseBody, type ObjectDecoder, type ParsedBody } from '../runtime/decoder.js';
import { newBadRequest, newInvalid, newNotFound, StatusError } from '../runtime/errors.js';
import { invalid, notSupported } from '../runtime/field-errors.js';
import { pruneUnknownFields } from '../runtime/prune.js';
import type { ResourceInfo } from '../runtime/scheme.js';
import type { SchemaValidator } from '../runtime/schema-validator.js';
import type { ListParams, Store } from '../registry/generic/store.js';
import type { StoredObject } from '../storage/interface.js';
import { bodyFormat, patchType, type PatchType } from './negotiation.js';
import { Query } from './query.js';
import type { RequestInfo } from './request-info.js';
import { addWarnings, writeObject, type WriteOptions } from './responses.js';

export interface HandlerContext {
  decoder: ObjectDecoder;
  schemas: SchemaValidator;
}

export interface ResourceRequest {
  req: Request;
  res: Response;
  info: RequestInfo;
  resource: ResourceInfo;
  store: Store;
  query: Query;
  out: WriteOptions;
}

function body(req: Request): Buffer {
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
}

/** Decodes a create/update body into an object, applying the fieldValidation level to unknown and duplicate fields. */
function decodeObject(ctx: HandlerContext, r: ResourceRequest): StoredObject {
  const level = r.query.fieldValidation();
  const raw = body(r.req);
  if (raw.length === 0) throw newBadRequest('the request body is empty: an object is required');
  const parsed = parseBody(raw, bodyFormat(r.req.headers['content-type']), level !== 'Ignore');
  const decoded = ctx.decoder.decode(r.resource, parsed.value);
  applyFieldValidation(r, level, parsed, decoded.unknownFields);
  return decoded.obj;
}

/** Ignore drops unknown and duplicate fields silently, Warn adds one Warning each, Strict answers 400 naming all. */
function applyFieldValidation(r: ResourceRequest, level: 'Ignore' | 'Warn' | 'Strict', parsed: ParsedBody, unknownFields: string[]): void {
  if (level === 'Ignore') return;
  const unknown = unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`);
  if (parsed.duplicates.length === 0 && unknown.length === 0) return;
  if (level === 'Warn') {
    addWarnings(r.res, [...parsed.duplicates, ...unknown]);
    return;
  }
  const duplicates = parsed.format === 'yaml' && parsed.duplicates.length > 0
    ? [`yaml: unmarshal errors:\n  ${parsed.duplicates.join('\n  ')}`]
    : parsed.duplicates;
  throw newBadRequest(`strict decoding error: ${[...duplicates, ...unknown].join(', ')}`);
}

function listParams(q: Query): ListParams {
  const p: ListParams = {};
  const set = <K extends keyof ListParams>(k: K, v: ListParams[K] | undefined) => {
    if (v !== undefined) p[k] = v;
  };
  set('labelSelector', q.str('labelSelector'));
  set('fieldSelector', q.str('fieldSelector'));
  set('continue', q.str('continue') || undefined);
  set('resourceVersion', q.str('resourceVersion'));
  set('resourceVersionMatch', q.str('resourceVersionMatch') || undefined);
  const limit = q.int('limit');
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
  writeObject(r.res, 200, obj, r.out);
}

export async function listResource(r: ResourceRequest): Promise<void> {
  const list = await r.store.list(r.info.namespace, listParams(r.query));
  writeObject(r.res, 200, list, r.out);
}

export async function createResource(ctx: HandlerContext, r: ResourceRequest): Promise<void> {
  const dryRun = r.query.dryRun();
  const obj = decodeObject(ctx, r);
  checkNamespace(r, obj);
  const created = await r.store.create(r.info.namespace, obj, { dryRun });
  writeObject(r.res, 201, created, r.out);
}

export async function updateResource(ctx: HandlerContext, r: ResourceRequest): Promise<void> {
  const dryRun = r.query.dryRun();
  const obj = decodeObject(ctx, r);
  if (obj.metadata.name !== r.info.name) {
    throw newBadRequest(`the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${r.info.name})`);
  }
  checkNamespace(r, obj);
  const { object, created } = await r.store.update(r.info.namespace, r.info.name, async () => structuredClone(obj), {
    dryRun,
    ...(r.info.subresource ? { subresource: r.info.subresource } : {}),
  });
  writeObject(r.res, created ? 201 : 200, object, r.out);
}

export async function patchResource(ctx: HandlerContext, r: ResourceRequest): Promise<void> {
  const dryRun = r.query.dryRun();
  const level = r.query.fieldValidation();
  const type = patchType(r.req.headers['content-type']);
  const raw = body(r.req);
  if (raw.length === 0) throw newBadRequest('the request body is empty: a patch is required');
  const parsed = parseBody(raw, 'json', level !== 'Ignore' && type !== 'json');
  const patch = parsed.value;
  if (type !== 'json' && (typeof patch !== 'object' || patch === null || Array.isArray(patch))) {
    throw newBadRequest(`a ${type === 'merge' ? 'merge' : 'strategic merge'} patch must be a JSON object`);
  }
  let unknownFields: string[] = [];
  const { object } = await r.store.update(r.info.namespace, r.info.name, async (current) => {
    if (!current) throw newNotFound(r.resource.groupResource, r.info.name);
    const patched = applyPatch(type, current, patch, r.resource);
    const decoded = ctx.decoder.decode(r.resource, patched);
    unknownFields = decoded.unknownFields;
    // Strict must reject before the write; warnings are added once, after it.
    if (level === 'Strict') applyFieldValidation(r, level, parsed, unknownFields);
    if (decoded.obj.metadata.name !== r.info.name) {
      throw newBadRequest(`the name of the object (${decoded.obj.metadata.name ?? ''}) does not match the name on the URL (${r.info.name})`);
    }
    checkNamespace(r, decoded.obj);
    return decoded.obj;
  }, { dryRun, ...(r.info.subresource ? { subresource: r.info.subresource } : {}) });
  if (level === 'Warn') applyFieldValidation(r, level, parsed, unknownFields);
  writeObject(r.res, 200, object, r.out);
}

/** Applies a patch of the given type; a malformed patch is 400, one that does not apply is 422. */
function applyPatch(type: PatchType, current: StoredObject, patch: unknown, resource: ResourceInfo): unknown {
  try {
    switch (type) {
      case 'json': return applyJSONPatch(current, patch);
      case 'merge': return applyMergePatch(current, patch);
      case 'strategic': return applyStrategicMergePatch(current, patch, resource.schema);
    }
  } catch (e) {
    if (e instanceof PatchError && e.kind === 'failed') throw new StatusError(422, 'Invalid', `the patch could not be applied: ${e.message}`);
    if (e instanceof PatchError || e instanceof StrategicMergePatchError) throw newBadRequest(`the patch is malformed: ${e.message}`);
    throw e;
  }
}

/** DeleteOptions from the optional body, overridden by query parameters as upstream does. */
function deleteOptions(ctx: HandlerContext, r: ResourceRequest): { options: DeleteOptions; dryRun: boolean } {
  const raw = body(r.req);
  let options: DeleteOptions = {};
  if (raw.length > 0) {
    const data = parseBody(raw, bodyFormat(r.req.headers['content-type']), false).value;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw newBadRequest('DeleteOptions must be a JSON object');
    pruneUnknownFields(DeleteOptionsSchema, data);
    const { decodeErrors, fieldErrors } = ctx.schemas.check(DeleteOptionsSchema, data);
    if (decodeErrors.length > 0) throw newBadRequest(`DeleteOptions cannot be decoded: ${decodeErrors.join('; ')}`);
    if (fieldErrors.length > 0) throw newInvalid('DeleteOptions', 'meta.orch.io', '', fieldErrors);
    options = data as DeleteOptions;
  }
  const grace = r.query.int('gracePeriodSeconds');
  if (grace !== undefined) options.gracePeriodSeconds = grace;
  const policy = r.query.str('propagationPolicy');
  if (policy !== undefined && policy !== '') {
    if (policy !== 'Orphan' && policy !== 'Background' && policy !== 'Foreground') {
      throw newInvalid('DeleteOptions', 'meta.orch.io', '', [notSupported('propagationPolicy', policy, ['Foreground', 'Background', 'Orphan'])]);
    }
    options.propagationPolicy = policy;
  }
  if (options.orphanDependents !== undefined && options.propagationPolicy !== undefined) {
    throw newInvalid('DeleteOptions', 'meta.orch.io', '', [invalid('propagationPolicy', options.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set')]);
  }
  let dryRun = r.query.dryRun();
  for (const v of options.dryRun ?? []) {
    if (v !== 'All') throw newBadRequest(`Invalid dryRun value: ${JSON.stringify(v)}: supported values: "All"`);
    dryRun = true;
  }
  return { options, dryRun };
}

export async function deleteResource(ctx: HandlerContext, r: ResourceRequest): Promise<void> {
  const { options, dryRun } = deleteOptions(ctx, r);
  const { object, deleted } = await r.store.delete(r.info.namespace, r.info.name, options, { dryRun });
  if (!deleted) {
    writeObject(r.res, 202, object, r.out);
    return;
  }
  if (r.store.strategy.returnDeletedObject) {
    writeObject(r.res, 200, object, r.out);
    return;
  }
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name: r.info.name, group: r.resource.group, kind: r.resource.resource, ...(object.metadata.uid ? { uid: object.metadata.uid } : {}) },
  };
  writeObject(r.res, 200, status, r.out);
}

export async function deleteCollection(ctx: HandlerContext, r: ResourceRequest): Promise<void> {
  const { options, dryRun } = deleteOptions(ctx, r);
  const list = await r.store.deleteCollection(r.info.namespace, listParams(r.query), options, { dryRun });
  writeObject(r.res, 200, list, r.out);
}

