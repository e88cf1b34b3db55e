// A patched object as upstream's patch handler judges it before it is the kind again. A JSON or
// merge patch is applied to the object's JSON, which is then decoded by the apiVersion and kind it
// names: without an apiVersion upstream decodes it into its internal type, which knows none of the
// wire's fields, so the object loses its name; another version or kind decodes as that (and fails
// to convert) or not at all. A strategic merge patch is applied to a typed object, so the
// apiVersion and kind a patch sets are dropped. Whatever fails to decode is a 422 on `patch`.
import type { ResourceInfo } from '../runtime/scheme.js';
import { newBadRequest, newInvalid, type StatusError } from '../runtime/errors.js';
import { invalid } from '../runtime/field-errors.js';
import type { PatchType } from './negotiation.js';
import { parseGroupVersion, readTypeMeta } from './type-meta.js';

/** The kinds a group/version serves: whether a patched object's apiVersion and kind name one. */
export interface KindRegistry {
  groupVersion(group: string, version: string): { resources: readonly { kind: string }[] } | undefined;
}

/** 422 Invalid on the field `patch`, upstream's answer to a patched object that does not decode as its kind. */
export function invalidPatch(type: PatchType, patched: unknown, patch: unknown, why: string): StatusError {
  return newInvalid('', '', '', [invalid('patch', shownPatch(type, patched, patch), why)]);
}

/**
 * How upstream shows the patch in that 422: the patched object's JSON for a JSON or merge patch,
 * the patch itself as Go prints a map (`%+v`) for a strategic merge patch.
 */
function shownPatch(type: PatchType, patched: unknown, patch: unknown): string {
  return type === 'strategic' ? goSprint(patch) : JSON.stringify(patched);
}

/** A JSON value as Go's fmt prints the map a JSON decoder made of it (integers kept, maps sorted by key). */
export function goSprint(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goFloat(v);
  if (typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return `[${v.map(goSprint).join(' ')}]`;
  const o = v as Record<string, unknown>;
  return `map[${Object.keys(o).sort().map((k) => `${k}:${goSprint(o[k])}`).join(' ')}]`;
}

/** An integer as it is; any other number as Go's %v prints a float64 (exponent form below 1e-4 and from 1e6). */
function goFloat(n: number): string {
  if (Number.isInteger(n) || !Number.isFinite(n)) return String(n);
  const [mantissa, exponent] = n.toExponential().split('e') as [string, string];
  const exp = Number(exponent);
  if (exp >= -4 && exp < 6) return String(n);
  return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** The name of the Go package of a group's internal types, which upstream's conversion errors print. */
function internalPackage(group: string): string {
  return group === '' ? 'core' : group.split('.')[0]!;
}

export interface PatchedObjectCheck {
  type: PatchType;
  /** The patched object, whose apiVersion and kind are set to the resource's when it is accepted. */
  patched: unknown;
  patch: unknown;
  info: ResourceInfo;
  /** The name on the URL. */
  name: string;
  level: 'Ignore' | 'Warn' | 'Strict';
  kinds?: KindRegistry;
  warn(texts: string[]): void;
}

/**
 * Judges the apiVersion and kind a patch left on the object as upstream does, and sets them to
 * the resource's when it goes on. A JSON or merge patch that removed the apiVersion loses the
 * object's name (400, its fields reported as unknown: warned, or under Strict a 422); one naming
 * another kind or a version not served for it is 422. A strategic merge patch's are ignored.
 */
export function checkPatchedTypeMeta(c: PatchedObjectCheck): void {
  const { patched, info } = c;
  const fail = (why: string) => invalidPatch(c.type, patched, c.patch, why);
  const typeMeta = readTypeMeta(patched, fail);
  const obj = patched as Record<string, unknown>;
  const accept = () => {
    obj.apiVersion = info.apiVersion;
    obj.kind = info.kind;
  };
  if (c.type === 'strategic') return accept();
  const apiVersion = typeMeta.apiVersion;
  const kind = typeMeta.kind || info.kind;
  let { group, version } = parseGroupVersion(apiVersion);
  if (version === '' && group === '') group = info.group;
  if (version === '' && group !== info.group) throw fail(`Object 'apiVersion' is missing in '${JSON.stringify(patched)}'`);
  if (version === '') {
    // Decoded into the internal type: a kind of its own is unknown there, and the object keeps
    // no field of the wire's but its kind.
    if (kind !== info.kind) throw fail(`no kind ${JSON.stringify(kind)} is registered for the internal version of group ${JSON.stringify(info.group)}`);
    const unknown = Object.keys(obj).filter((k) => k !== 'kind' && k !== 'apiVersion').sort().map((k) => `unknown field ${JSON.stringify(k)}`);
    if (c.level === 'Strict' && unknown.length > 0) throw fail(`strict decoding error: ${unknown.join(', ')}`);
    if (c.level === 'Warn') c.warn(unknown);
    throw newBadRequest(`the name of the object (${c.name} based on URL) was undeterminable: name must be provided`);
  }
  const named = group ? `${group}/${version}` : version;
  if (named === info.apiVersion && kind === info.kind) return accept();
  const served = c.kinds?.groupVersion(group, version)?.resources.some((r) => r.kind === kind) ?? false;
  if (!served) throw fail(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(named)}`);
  // Another version of the same kind converts; another kind does not.
  if (group === info.group && kind === info.kind) return accept();
  throw fail(`converting (${version}.${kind}) to (${internalPackage(info.group)}.${info.kind}): unknown conversion`);
}
