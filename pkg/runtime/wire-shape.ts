// The shape upstream's Go types give an object on the wire: a non-pointer field tagged
// `omitempty` disappears when empty, one without the tag (or a non-pointer struct, which Go never
// omits) is always written, a pointer is written whenever set. Each field says which with
// `x-orch-emit` (defaults in api/schema.ts); this module applies it: empty 'omitempty' values are
// dropped at decode, and at write 'always' fields that are absent get their zero value, so what
// is stored and read back is what upstream would send.
import { isDeepStrictEqual } from 'node:util';
import { IntOrString, Quantity } from '../../api/meta/v1/primitives.js';
import type { EmitMode } from '../../api/schema.js';
import { isPlainObject, type SchemaNode } from './schema-node.js';


/** Marks a zero value that is not written at all (lists, maps, free-form values). */
const ABSENT = Symbol('absent');

interface Field {
  key: string;
  mode: EmitMode;
  node: Plan;
}

type Plan =
  | { kind: 'struct'; fields: Field[] }
  | { kind: 'list'; item: Plan | undefined }
  | { kind: 'map'; value: Plan | undefined }
  /** `zero` is what an absent 'always' field becomes; `omittable` whether 'omitempty' drops a value equal to it. */
  | { kind: 'leaf'; zero: unknown; omittable: boolean };

const intOrStringName = IntOrString['x-orch-type'] as string;
const quantityName = Quantity['x-orch-type'] as string;

const plans = new WeakMap<object, Plan>();

/** The plan of a schema node, compiled on first use and kept for the node's lifetime. */
function planOf(schema: SchemaNode): Plan {
  let plan = plans.get(schema);
  if (!plan) {
    plan = compile(schema);
    plans.set(schema, plan);
  }
  return plan;
}

function compile(s: SchemaNode): Plan {
  // A free-form value is kept as written; one that also declares fields (a custom resource that
  // preserves unknown fields) shapes those and keeps the rest.
  if (s['x-orch-preserve-unknown-fields'] && !s.properties) return { kind: 'leaf', zero: ABSENT, omittable: false };
  if (s.properties) {
    const required = new Set(s.required ?? []);
    const fields = Object.entries(s.properties).map(([key, child]): Field => {
      const node = planOf(child);
      const mode = child['x-orch-emit'] ?? (required.has(key) ? 'always' : node.kind === 'struct' ? 'pointer' : 'omitempty');
      return { key, mode, node };
    });
    return { kind: 'struct', fields };
  }
  if (s.type === 'array') return { kind: 'list', item: s.items ? planOf(s.items) : undefined };
  if (s.patternProperties) {
    const value = Object.values(s.patternProperties)[0];
    return { kind: 'map', value: value ? planOf(value) : undefined };
  }
  if (typeof s.additionalProperties === 'object') return { kind: 'map', value: planOf(s.additionalProperties) };
  // IntOrString, Quantity and metav1.Time are Go structs: never omitted, zero values 0, "0" and null.
  const name = s['x-orch-type'];
  if (name === intOrStringName || s['x-orch-int-or-string']) return { kind: 'leaf', zero: 0, omittable: false };
  if (name === quantityName) return { kind: 'leaf', zero: '0', omittable: false };
  switch (s.type) {
    case 'string':
      if (s.format === 'date-time') return { kind: 'leaf', zero: null, omittable: false };
      // []byte is a Go slice: absent stays absent, and omitempty drops an empty one.
      if (s.format === 'byte') return { kind: 'leaf', zero: ABSENT, omittable: true };
      return { kind: 'leaf', zero: '', omittable: true };
    case 'integer':
    case 'number':
      return { kind: 'leaf', zero: 0, omittable: true };
    case 'boolean':
      return { kind: 'leaf', zero: false, omittable: true };
    default:
      return { kind: 'leaf', zero: ABSENT, omittable: false };
  }
}


function isEmpty(plan: Plan, v: unknown): boolean {
  switch (plan.kind) {
    case 'leaf':
      return plan.omittable && (v === plan.zero || (plan.zero === ABSENT && v === ''));
    case 'list':
      return Array.isArray(v) && v.length === 0;
    case 'map':
      return isPlainObject(v) && Object.keys(v).length === 0;
    case 'struct':
      return false;
  }
}

/** The zero value an absent 'always' field is written with, or ABSENT. */
function zeroOf(plan: Plan): unknown {
  switch (plan.kind) {
    case 'struct': {
      const obj: Record<string, unknown> = {};
      fillStruct(plan.fields, obj);
      return obj;
    }
    case 'leaf':
      return plan.zero;
    default:
      return ABSENT;
  }
}

function fillStruct(fields: Field[], obj: Record<string, unknown>): void {
  for (const f of fields) {
    if (f.mode !== 'always') continue;
    const z = zeroOf(f.node);
    if (z !== ABSENT) obj[f.key] = z;
  }
}

/** One walk over `value`: drops empty 'omitempty' fields and, with `fill`, adds absent 'always' ones. */
function visit(plan: Plan, value: unknown, fill: boolean): void {
  switch (plan.kind) {
    case 'struct': {
      if (!isPlainObject(value)) return;
      for (const f of plan.fields) {
        const v = value[f.key];
        if (v === undefined) {
          if (fill && f.mode === 'always') {
            const z = zeroOf(f.node);
            if (z !== ABSENT) value[f.key] = z;
          }
          continue;
        }
        if (f.mode === 'omitempty' && isEmpty(f.node, v)) {
          delete value[f.key];
          continue;
        }
        if (f.node.kind !== 'leaf') visit(f.node, v, fill);
      }
      return;
    }
    case 'list':
      if (plan.item && plan.item.kind !== 'leaf' && Array.isArray(value)) for (const item of value) visit(plan.item, item, fill);
      return;
    case 'map':
      if (plan.value && plan.value.kind !== 'leaf' && isPlainObject(value)) for (const v of Object.values(value)) visit(plan.value, v, fill);
      return;
    case 'leaf':
      return;
  }
}

/** Drops, in place, the empty values of 'omitempty' fields anywhere in `value` (an object of `schema`). */
export function dropEmpty(schema: object, value: unknown): void {
  visit(planOf(schema as SchemaNode), value, false);
}

/**
 * Gives `value` (an object of `schema`), in place and in one walk, the shape it is stored and
 * served in: empty 'omitempty' values dropped, absent 'always' fields filled with zero values.
 */
export function shapeForWrite(schema: object, value: unknown): void {
  visit(planOf(schema as SchemaNode), value, true);
}

/**
 * A copy of `value` (of `schema`, possibly absent) as it is written: empty 'omitempty' values
 * dropped, zero values filled in. An absent struct becomes its zero value, as a non-pointer
 * struct field (a spec) is upstream.
 */
export function shapedCopy(schema: object, value: unknown): unknown {
  const plan = planOf(schema as SchemaNode);
  if (value === undefined || value === null) return plan.kind === 'struct' ? zeroOf(plan) : undefined;
  const copy = structuredClone(value);
  visit(plan, copy, true);
  return copy;
}

/** `value` as `plan` writes it, sharing every part already in that form; `value` itself when all of it is. */
function view(plan: Plan, value: unknown): unknown {
  switch (plan.kind) {
    case 'struct': {
      if (!isPlainObject(value)) return value;
      let out: Record<string, unknown> | undefined;
      for (const f of plan.fields) {
        const v = value[f.key];
        if (v === undefined) {
          if (f.mode === 'always') {
            const z = zeroOf(f.node);
            if (z !== ABSENT) (out ??= { ...value })[f.key] = z;
          }
          continue;
        }
        if (f.mode === 'omitempty' && isEmpty(f.node, v)) {
          delete (out ??= { ...value })[f.key];
          continue;
        }
        if (f.node.kind === 'leaf') continue;
        const shaped = view(f.node, v);
        if (shaped !== v) (out ??= { ...value })[f.key] = shaped;
      }
      return out ?? value;
    }
    case 'list': {
      if (!plan.item || plan.item.kind === 'leaf' || !Array.isArray(value)) return value;
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const shaped = view(plan.item, value[i]);
        if (shaped !== value[i]) (out ??= value.slice())[i] = shaped;
      }
      return out ?? value;
    }
    case 'map': {
      if (!plan.value || plan.value.kind === 'leaf' || !isPlainObject(value)) return value;
      let out: Record<string, unknown> | undefined;
      for (const k of Object.keys(value)) {
        const shaped = view(plan.value, value[k]);
        if (shaped !== value[k]) (out ??= { ...value })[k] = shaped;
      }
      return out ?? value;
    }
    case 'leaf':
      return value;
  }
}

/**
 * What shapedCopy gives, for a reader that never changes it: the parts of `value` already in
 * written form are shared rather than copied, so an object read from storage (written in that
 * form) costs one walk and no copy. Neither `value` nor the result may be changed afterwards.
 */
export function shapedView(schema: object, value: unknown): unknown {
  const plan = planOf(schema as SchemaNode);
  if (value === undefined || value === null) return plan.kind === 'struct' ? zeroOf(plan) : undefined;
  return view(plan, value);
}

/** Whether `a` and `b` are written the same: a fill-in or a dropped empty value is no difference. */
export function sameOnWire(schema: object, a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(shapedView(schema, a), shapedView(schema, b));
}
