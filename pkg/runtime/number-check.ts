// The checks upstream's JSON decoder makes on numbers, which JSON.parse does not: an integer
// field takes only an integer literal within its Go type's range, and no number may change on
// the way in (a literal beyond 2^53, or one that overflows to Infinity or underflows to 0, would
// be stored as something else than the client sent).
import type { NumberLiteral, ValuePath } from './body-scan.js';
import { isPlainObject, type SchemaNode } from './schema-node.js';



const pathKey = (path: ValuePath): string => JSON.stringify(path);

/** `spec.template.spec.containers[0].ports[1].containerPort`: keys joined by dots, indices in brackets. */
export function formatPath(path: ValuePath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${seg}` : seg;
  }
  return out;
}

/**
 * The first number problem of `obj` (a decoded body after unknown fields were dropped), worded as
 * upstream's decoder words it, or null. `literals` are the body's number literals as scanned from
 * its text (only those a JS number may not carry faithfully; every other number is its own literal).
 */
export function findNumberProblem(schema: object, obj: unknown, literals: readonly NumberLiteral[] = []): string | null {
  const byPath = new Map<string, NumberLiteral>();
  for (const l of literals) byPath.set(pathKey(l.path), l);
  const intProblem = checkIntegers(schema as SchemaNode, obj, [], [], '', byPath);
  if (intProblem) return intProblem;
  for (const l of literals) {
    if (!l.inexact) continue;
    if (typeof valueAt(obj, l.path) !== 'number') continue; // dropped as unknown, or not where it was
    return `${formatPath(l.path)}: the number ${l.literal} cannot be represented exactly`;
  }
  return nonFiniteProblem(obj);
}

function valueAt(root: unknown, path: ValuePath): unknown {
  let cur = root;
  for (const seg of path) {
    if (typeof seg === 'number') {
      if (!Array.isArray(cur)) return undefined;
      cur = cur[seg];
    } else {
      if (!isPlainObject(cur) || !Object.hasOwn(cur, seg)) return undefined;
      cur = cur[seg];
    }
  }
  return cur;
}

/** strconv.ParseInt(literal, 10, bits) succeeds. */
function parsesAsGoInt(literal: string, bits: 32 | 64): boolean {
  if (!/^[-+]?[0-9]+$/.test(literal)) return false;
  const n = BigInt(literal.replace(/^\+/, ''));
  const limit = 1n << BigInt(bits - 1);
  return n >= -limit && n < limit;
}

function intBits(schema: SchemaNode): 32 | 64 | null {
  const t = schema.type;
  if (t !== 'integer' && !(Array.isArray(t) && t.includes('integer'))) return null;
  return schema.format === 'int32' ? 32 : 64;
}

/** Walks the schema (never deeper than it), so recursion is bounded by the kind's shape. */
function checkIntegers(
  schema: SchemaNode, value: unknown, path: ValuePath, fields: string[], struct: string, literals: Map<string, NumberLiteral>,
): string | null {
  if (schema['x-orch-preserve-unknown-fields']) return null;
  if (typeof value === 'number') {
    const lit = literals.get(pathKey(path))?.literal;
    if (lit === undefined && !Number.isFinite(value)) return null; // reported as an unsupported value
    const literal = lit ?? String(value);
    if (schema['x-orch-int-or-string']) {
      return parsesAsGoInt(literal, 32) ? null : `json: cannot unmarshal number ${literal} into Go value of type int32`;
    }
    const bits = intBits(schema);
    if (bits === null || parsesAsGoInt(literal, bits)) return null;
    const where = struct ? `Go struct field ${struct}.${fields.join('.')}` : 'Go value';
    return `json: cannot unmarshal number ${literal} into ${where} of type int${bits}`;
  }
  if (Array.isArray(value)) {
    if (!schema.items) return null;
    for (let i = 0; i < value.length; i++) {
      const p = checkIntegers(schema.items, value[i], [...path, i], fields, struct, literals);
      if (p) return p;
    }
    return null;
  }
  if (!isPlainObject(value)) return null;
  const props = schema.properties;
  const mapValues = schema.patternProperties ? Object.values(schema.patternProperties)[0] : undefined;
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  if (!props && !mapValues && !additional) return null;
  const name = schema['x-orch-type'] ? schema['x-orch-type'].slice(schema['x-orch-type'].lastIndexOf('.') + 1) : struct;
  for (const key of Object.keys(value)) {
    const prop = props?.[key];
    let p: string | null = null;
    // Go names the innermost struct and the chain of struct fields; map keys and list indices are not part of it.
    if (prop) p = checkIntegers(prop, value[key], [...path, key], [...fields, key], name, literals);
    else if (mapValues ?? additional) p = checkIntegers((mapValues ?? additional)!, value[key], [...path, key], fields, struct, literals);
    if (p) return p;
  }
  return null;
}

/** The first Infinity or NaN in `obj` (YAML's .inf and .nan), which JSON cannot carry; upstream's YAML-to-JSON step fails on them. */
function nonFiniteProblem(obj: unknown): string | null {
  // Each entry links to its parent, so a path is built only for the value reported.
  interface Entry { v: unknown; parent: Entry | null; seg: string | number }
  const stack: Entry[] = [{ v: obj, parent: null, seg: '' }];
  while (stack.length > 0) {
    const e = stack.pop()!;
    const v = e.v;
    if (typeof v === 'number') {
      if (Number.isFinite(v)) continue;
      const path: ValuePath = [];
      for (let p: Entry | null = e; p?.parent; p = p.parent) path.unshift(p.seg);
      const shown = Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
      return `${formatPath(path)}: json: unsupported value: ${shown}`;
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], parent: e, seg: i });
    } else if (isPlainObject(v)) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ v: v[keys[i]!], parent: e, seg: keys[i]! });
    }
  }
  return null;
}
