// ObjectMeta inside custom resources, as upstream treats it (pkg/apiserver/schema/objectmeta):
// a resource's metadata and that of every embedded resource (x-kubernetes-embedded-resource) is
// decoded as a Go metav1.ObjectMeta would be (unknown fields dropped and reported, wrongly typed
// ones refused, or dropped when reading old objects from storage) and written back in the form
// Go writes it; embedded resources are then validated like objects: apiVersion, kind, and
// metadata by apimachinery's ValidateObjectMeta.
import { forbidden, GoStrings, invalid, Path, required, tooLong, type FieldError } from '../../runtime/field-errors.js';
import { isDNS1123Label, isLabelValue, isQualifiedName, nameIsPathSegment } from '../../registry/validation/names.js';
import { parseGoRFC3339 } from '../../util/rfc3339.js';
import { goBadValue } from './go-value.js';
import { hasField, isObject, setField } from './json-schema-props.js';
import { asResourceRoot, type Structural } from './structural.js';
import { UnknownFieldPaths } from './unknown-field-paths.js';

// ---- decoding metav1.ObjectMeta ----

type FieldType =
  | { t: 'string' | 'int64' | 'bool' | 'time' | 'raw' }
  | { t: 'stringMap' }
  | { t: 'list'; of: FieldType; goType: string }
  | { t: 'struct'; name: string; fields: Record<string, FieldType>; always?: readonly string[] };

const str: FieldType = { t: 'string' };
const int64: FieldType = { t: 'int64' };
const bool: FieldType = { t: 'bool' };
const time: FieldType = { t: 'time' };

const ownerReference: FieldType = {
  t: 'struct', name: 'OwnerReference',
  fields: { apiVersion: str, kind: str, name: str, uid: str, controller: bool, blockOwnerDeletion: bool },
  // Written even when empty (no omitempty on these in Go).
  always: ['apiVersion', 'kind', 'name', 'uid'],
};

const managedFieldsEntry: FieldType = {
  t: 'struct', name: 'ManagedFieldsEntry',
  fields: { manager: str, operation: str, apiVersion: str, time, fieldsType: str, fieldsV1: { t: 'raw' }, subresource: str },
};

const objectMeta: Extract<FieldType, { t: 'struct' }> = {
  t: 'struct', name: 'ObjectMeta',
  fields: {
    name: str, generateName: str, namespace: str, selfLink: str, uid: str, resourceVersion: str, generation: int64,
    creationTimestamp: time, deletionTimestamp: time, deletionGracePeriodSeconds: int64,
    labels: { t: 'stringMap' }, annotations: { t: 'stringMap' },
    ownerReferences: { t: 'list', of: ownerReference, goType: '[]v1.OwnerReference' },
    finalizers: { t: 'list', of: str, goType: '[]string' },
    managedFields: { t: 'list', of: managedFieldsEntry, goType: '[]v1.ManagedFieldsEntry' },
  },
};

/** Fields Go writes when unset or empty: pointers are written when set, others are omitted when empty. */
const pointerFields = new Set(['deletionTimestamp', 'deletionGracePeriodSeconds', 'controller', 'blockOwnerDeletion', 'time', 'fieldsV1']);

class DecodeError extends Error {}

function jsonKind(v: unknown): string {
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : 'string';
}

function goTypeName(t: FieldType): string {
  switch (t.t) {
    case 'stringMap': return 'map[string]string';
    case 'list': return t.goType;
    case 'struct': return `v1.${t.name}`;
    case 'time': return 'v1.Time';
    case 'raw': return 'v1.FieldsV1';
    default: return t.t;
  }
}

/** The decoded value of `v` for a field of type `t` (Go's zero value for null), in the form Go writes it back. */
function decodeValue(v: unknown, t: FieldType, where: { struct: string; field: string }, unknown: string[], path: string): unknown {
  const mismatch = (kind = jsonKind(v)) => new DecodeError(
    `json: cannot unmarshal ${kind} into Go struct field ${where.struct}.${where.field} of type ${goTypeName(t)}`);
  if (v === null) return zero(t);
  switch (t.t) {
    case 'string':
      if (typeof v !== 'string') throw mismatch();
      return v;
    case 'bool':
      if (typeof v !== 'boolean') throw mismatch();
      return v;
    case 'int64':
      if (typeof v !== 'number') throw mismatch();
      if (!Number.isInteger(v) || Math.abs(v) >= 2 ** 63) throw mismatch(`number ${v}`);
      return v;
    case 'raw':
      return v;
    case 'time': {
      if (typeof v !== 'string') throw new DecodeError(`json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
      const parsed = parseGoRFC3339(v);
      if ('error' in parsed) throw new DecodeError(parsed.error);
      // metav1.Time is written in UTC, to the second.
      return new Date(Math.floor(parsed.ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    }
    case 'stringMap': {
      if (!isObject(v)) throw mismatch();
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        if (x !== null && typeof x !== 'string') throw new DecodeError(`json: cannot unmarshal ${jsonKind(x)} into Go struct field ${where.struct}.${where.field} of type string`);
        setField(out, k, x ?? '');
      }
      return out;
    }
    case 'list': {
      if (!Array.isArray(v)) throw mismatch();
      return v.map((x, i) => decodeValue(x, t.of, where, unknown, `${path}[${i}]`));
    }
    case 'struct': {
      if (!isObject(v)) throw mismatch();
      return decodeStruct(v, t, where.field, unknown, path);
    }
  }
}

function zero(t: FieldType): unknown {
  switch (t.t) {
    case 'string': return '';
    case 'int64': return 0;
    case 'bool': return false;
    case 'struct': return decodeStruct({}, t, '', [], '');
    default: return undefined;
  }
}

function decodeStruct(v: Record<string, unknown>, t: Extract<FieldType, { t: 'struct' }>, fieldPath: string, unknown: string[], path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const ft = Object.hasOwn(t.fields, k) ? t.fields[k] : undefined;
    const p = path ? `${path}.${k}` : k;
    if (ft === undefined) {
      unknown.push(p);
      continue;
    }
    const decoded = decodeValue(x, ft, { struct: t.name, field: fieldPath ? `${fieldPath}.${k}` : k }, unknown, p);
    if (decoded !== undefined) setField(out, k, decoded);
  }
  return writtenAsGo(out, t);
}

/** A decoded struct as Go's JSON encoding writes it: empty omitempty fields left out, `always` fields present. */
function writtenAsGo(out: Record<string, unknown>, t: Extract<FieldType, { t: 'struct' }>): Record<string, unknown> {
  for (const k of Object.keys(out)) {
    const v = out[k];
    if (pointerFields.has(k)) continue;
    const empty = v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0 && k !== 'fieldsV1');
    if (empty && !t.always?.includes(k)) delete out[k];
  }
  for (const k of t.always ?? []) if (!hasField(out, k)) out[k] = '';
  return out;
}

export interface DecodedObjectMeta {
  /** The metadata as Go writes it back; undefined when the object has none. */
  meta?: Record<string, unknown>;
  /** Go's decoding error, when the metadata cannot be a metav1.ObjectMeta (and malformed fields are not dropped). */
  error?: string;
  /** Paths of unknown fields, `<prefix>metadata.<field>`. */
  unknown: string[];
}

/**
 * `obj.metadata` decoded as a metav1.ObjectMeta (upstream's GetObjectMetaWithOptions). With
 * `dropMalformed` (objects read from storage), fields that do not decode are dropped instead
 * of failing the whole.
 */
export function decodeObjectMeta(obj: Record<string, unknown>, dropMalformed: boolean, prefix?: Path): DecodedObjectMeta {
  if (!hasField(obj, 'metadata')) return { unknown: [] };
  const metadata = obj.metadata;
  const at = prefix === undefined || String(prefix) === '' ? 'metadata' : `${prefix}.metadata`;
  if (metadata === null) return { meta: {}, unknown: [] };
  if (!isObject(metadata)) {
    if (dropMalformed) return { meta: {}, unknown: [] };
    return { error: `json: cannot unmarshal ${jsonKind(metadata)} into Go value of type v1.ObjectMeta`, unknown: [] };
  }
  const unknown: string[] = [];
  try {
    const meta = decodeStruct(metadata, objectMeta, '', unknown, '');
    return { meta, unknown: unknown.map((p) => `${at}.${p}`) };
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    if (!dropMalformed) return { error: e.message, unknown: [] };
  }
  // Field by field, keeping those that decode.
  const meta: Record<string, unknown> = {};
  const kept: string[] = [];
  for (const [k, v] of Object.entries(metadata)) {
    const fieldUnknown: string[] = [];
    try {
      Object.assign(meta, decodeStruct({ [k]: v }, objectMeta, '', fieldUnknown, ''));
      kept.push(...fieldUnknown);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
    }
  }
  return { meta: writtenAsGo(meta, objectMeta), unknown: kept.map((p) => `${at}.${p}`) };
}

// ---- coercion of embedded resources ----

export interface CoerceOptions {
  /** Drop what does not decode (reading from storage) instead of refusing it. */
  dropInvalidFields: boolean;
}

/**
 * Coerces, in place, the apiVersion, kind and metadata of the embedded resources in `obj`
 * (and of `obj` itself when `isResourceRoot`), as upstream's objectmeta.Coerce: the first field
 * that cannot be decoded is returned as an error; unknown metadata fields are reported.
 */
export function coerceEmbedded(pth: Path | undefined, obj: unknown, s: Structural | undefined, isResourceRoot: boolean, opts: CoerceOptions): { error?: FieldError; unknown: string[] } {
  const unknown = new UnknownFieldPaths(true);
  const error = coerce(pth ?? Path.root(''), obj, isResourceRoot ? asResourceRoot(s) : s, opts, unknown);
  return { ...(error ? { error } : {}), unknown: unknown.sorted() };
}

function coerce(pth: Path, x: unknown, s: Structural | undefined, opts: CoerceOptions, unknown: UnknownFieldPaths): FieldError | undefined {
  if (s === undefined) return undefined;
  if (isObject(x)) {
    for (const k of Object.keys(x)) {
      if (!hasField(x, k)) continue;
      const v = x[k];
      if (s.xEmbeddedResource && (k === 'apiVersion' || k === 'kind') && typeof v !== 'string') {
        if (opts.dropInvalidFields) delete x[k];
        else return invalid(pth.child(k), goBadValue(v), 'must be a string');
      } else if (s.xEmbeddedResource && k === 'metadata') {
        const decoded = decodeObjectMeta(x, opts.dropInvalidFields, pth);
        unknown.paths.push(...decoded.unknown);
        if (decoded.error !== undefined) {
          if (!opts.dropInvalidFields) return invalid(pth.child('metadata'), goBadValue(v), decoded.error);
        } else if (decoded.meta !== undefined) {
          x.metadata = decoded.meta;
        }
      }
      const prop = s.properties?.get(k);
      const err = prop !== undefined
        ? unknown.withKey(k, () => coerce(pth.child(k), x[k], prop, opts, unknown))
        : s.additionalProperties !== undefined
          ? unknown.withKey(k, () => coerce(pth.key(k), x[k], s.additionalProperties!.structural, opts, unknown))
          : undefined;
      if (err !== undefined) return err;
    }
  } else if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const err = unknown.withIndex(i, () => coerce(pth.index(i), x[i], s.items, opts, unknown));
      if (err !== undefined) return err;
    }
  }
  return undefined;
}

// ---- validation of embedded resources ----

/** The errors of the embedded resources in `obj` (and of `obj` when `isResourceRoot`), as upstream's objectmeta.Validate. */
export function validateEmbedded(pth: Path | undefined, obj: unknown, s: Structural | undefined, isResourceRoot: boolean): FieldError[] {
  return validate(pth ?? Path.root(''), obj, isResourceRoot ? asResourceRoot(s) : s);
}

function validate(pth: Path, x: unknown, s: Structural | undefined): FieldError[] {
  if (s === undefined) return [];
  const errs: FieldError[] = [];
  if (isObject(x)) {
    if (s.xEmbeddedResource) errs.push(...validateEmbeddedResource(pth, x));
    for (const [k, v] of Object.entries(x)) {
      const prop = s.properties?.get(k);
      if (prop !== undefined) errs.push(...validate(pth.child(k), v, prop));
      else if (s.additionalProperties !== undefined) errs.push(...validate(pth.key(k), v, s.additionalProperties.structural));
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => errs.push(...validate(pth.index(i), v, s.items)));
  }
  return errs;
}

const dns1035Fmt = '[a-z]([-a-z0-9]*[a-z0-9])?';

function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!new RegExp(`^${dns1035Fmt}$`).test(value)) {
    errs.push(`a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '${dns1035Fmt}')`);
  }
  return errs;
}

function validateEmbeddedResource(pth: Path, x: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  if (!hasField(x, 'apiVersion')) errs.push(required(pth.child('apiVersion'), 'must not be empty'));
  if (!hasField(x, 'kind')) errs.push(required(pth.child('kind'), 'must not be empty'));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(invalid(pth.child(k), goBadValue(v), 'must be a string'));
      else if (v === '') errs.push(invalid(pth.child(k), v, 'must not be empty'));
      else if (v.split('/').length > 2) errs.push(invalid(pth.child(k), v, `unexpected GroupVersion string: ${v}`));
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(invalid(pth.child(k), goBadValue(v), 'must be a string'));
      else if (v === '') errs.push(invalid(pth.child(k), v, 'must not be empty'));
      else {
        const problems = isDNS1035Label(v.toLowerCase());
        if (problems.length > 0) errs.push(invalid(pth.child(k), v, `may have mixed case, but should otherwise match: ${problems.join(',')}`));
      }
    } else if (k === 'metadata') {
      const decoded = decodeObjectMeta(x, false);
      if (decoded.error !== undefined) errs.push(invalid(pth.child('metadata'), goBadValue(v), decoded.error));
      else errs.push(...validateGenericObjectMeta(decoded.meta ?? {}, pth.child('metadata')));
    }
  }
  return errs;
}

const TotalAnnotationSizeLimit = 256 * 1024;

/**
 * apimachinery's ValidateObjectMeta for metadata without a kind of its own (embedded resources,
 * custom resources): names are path segments, a namespace is checked only when set, finalizers
 * need only be qualified names.
 */
export function validateGenericObjectMeta(meta: Record<string, unknown>, path: Path, namespaced?: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const s = (k: string) => (typeof meta[k] === 'string' ? (meta[k] as string) : '');
  const name = (s('name') || 'fakename');
  if (s('generateName')) for (const m of nameIsPathSegment(s('generateName'), true)) errs.push(invalid(path.child('generateName'), s('generateName'), m));
  for (const m of nameIsPathSegment(name, false)) errs.push(invalid(path.child('name'), name, m));
  const ns = s('namespace');
  if (namespaced ?? ns !== '') {
    if (ns === '') errs.push(required(path.child('namespace')));
    else for (const m of isDNS1123Label(ns)) errs.push(invalid(path.child('namespace'), ns, m));
  } else if (ns !== '') {
    errs.push(forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  if (typeof meta.generation === 'number' && meta.generation < 0) errs.push(invalid(path.child('generation'), meta.generation, 'must be greater than or equal to 0'));
  // Label errors name the labels, not the key (apimachinery 1.30's ValidateLabels).
  for (const [k, v] of Object.entries((meta.labels ?? {}) as Record<string, string>)) {
    for (const m of isQualifiedName(k)) errs.push(invalid(path.child('labels'), k, m));
    for (const m of isLabelValue(v)) errs.push(invalid(path.child('labels'), v, m));
  }
  const annotations = (meta.annotations ?? {}) as Record<string, string>;
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(invalid(path.child('annotations'), k, m));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > TotalAnnotationSizeLimit) errs.push({ ...tooLong(path.child('annotations'), '', TotalAnnotationSizeLimit), detail: `must have at most ${TotalAnnotationSizeLimit} bytes` });
  const refs = (meta.ownerReferences ?? []) as Record<string, unknown>[];
  let firstController = '';
  for (const ref of refs) {
    const p = path.child('ownerReferences');
    const [group, version] = String(ref.apiVersion ?? '').includes('/') ? String(ref.apiVersion).split('/', 2) : ['', String(ref.apiVersion ?? '')];
    if (!version) errs.push(invalid(p.child('apiVersion'), ref.apiVersion ?? '', 'version must not be empty'));
    if (!ref.kind) errs.push(invalid(p.child('kind'), ref.kind ?? '', 'kind must not be empty'));
    if (!ref.name) errs.push(invalid(p.child('name'), ref.name ?? '', 'name must not be empty'));
    if (!ref.uid) errs.push(invalid(p.child('uid'), ref.uid ?? '', 'uid must not be empty'));
    if (group === '' && version === 'v1' && ref.kind === 'Event') errs.push(invalid(p, goBadValue(ref), '/v1, Kind=Event is disallowed from being an owner'));
    if (ref.controller === true) {
      const current = `${String(ref.kind ?? '')}/${String(ref.name ?? '')}`;
      if (firstController !== '') {
        errs.push(invalid(p, goBadValue(refs), `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`));
      } else {
        firstController = current;
      }
    }
  }
  const finalizers = (meta.finalizers ?? []) as string[];
  for (const f of finalizers) for (const m of isQualifiedName(f)) errs.push(invalid(path.child('finalizers'), f, m));
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(invalid(path.child('finalizers'), new GoStrings(finalizers), 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}
