// protobufjs message types built from our JSON schemas: one type per named object shape, with
// every property at its `x-proto` number, plus a plan saying how each JSON property maps to its
// protobuf field. The wire shapes follow upstream's generated.proto files (proto2, all optional).
import protobuf from 'protobufjs';

type Json = Record<string, unknown>;

/** Scalar protobuf types the schemas use (int64 carried as JS numbers in JSON, bytes as base64). */
export type ScalarType = 'string' | 'bool' | 'int32' | 'int64' | 'double' | 'bytes';

/** How one JSON value is carried on the wire. */
export type ValuePlan =
  | { kind: 'scalar'; type: ScalarType }
  /** metav1.Time / MicroTime: message {int64 seconds = 1; int32 nanos = 2}. */
  | { kind: 'time'; micro: boolean }
  /** intstr.IntOrString: message {int64 type = 1; int32 intVal = 2; string strVal = 3}. */
  | { kind: 'intOrString' }
  /** resource.Quantity: message {string string = 1}. */
  | { kind: 'quantity' }
  /** A free-form JSON value (FieldsV1, RawExtension): message {bytes raw = 1} holding JSON text. */
  | { kind: 'raw' }
  | { kind: 'message'; plan: MessagePlan }
  /**
   * A list as a map value: protobuf maps cannot hold repeated values, so upstream wraps them in a
   * message {repeated <item> items = 1} (authentication's ExtraValue, map[string][]string).
   */
  | { kind: 'list'; item: ValuePlan; typeName: string };

export interface FieldPlan {
  /** Property name in JSON. */
  json: string;
  /** Field name in the protobufjs message object. */
  proto: string;
  id: number;
  /** A single value, a repeated field, or a map<string, value> (entries with key 1, value 2). */
  shape: 'single' | 'list' | 'map';
  value: ValuePlan;
}

/** An inline-embedded Go struct: its properties are flat in JSON but a sub-message on the wire. */
export interface EmbeddedPlan {
  proto: string;
  id: number;
  plan: MessagePlan;
}

export interface MessagePlan {
  /** The schema's type name (`x-orch-type`), or a generated one for anonymous shapes. */
  name: string;
  type: protobuf.Type;
  fields: FieldPlan[];
  embedded: EmbeddedPlan[];
}

const metaV1 = 'io.orch.apimachinery.pkg.apis.meta.v1';
const timeName = `${metaV1}.Time`;
const microTimeName = `${metaV1}.MicroTime`;
const intOrStringName = 'io.orch.apimachinery.pkg.util.intstr.IntOrString';
const quantityName = 'io.orch.apimachinery.pkg.api.resource.Quantity';

const maxFieldNumber = 536_870_911;
// Property names that would clash with protobufjs message objects; such fields are named f<id>.
const unsafeNames = new Set(['constructor', 'prototype', '__proto__', 'toJSON', '$type', 'hasOwnProperty']);

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function protoFieldName(json: string, id: number): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(json) && !unsafeNames.has(json) ? json : `f${id}`;
}

function describe(v: ValuePlan): string {
  switch (v.kind) {
    case 'scalar': return v.type;
    case 'time': return v.micro ? 'microtime' : 'time';
    case 'message': return v.plan.type.name;
    case 'list': return `list<${describe(v.item)}>`;
    default: return v.kind;
  }
}

/**
 * Builds (once, cached) the protobufjs types for object schemas. Identical shapes share one type;
 * shapes of the same name that differ get distinct types.
 */
export class MessageTypes {
  private readonly root = new protobuf.Root();
  private readonly bySchema = new WeakMap<object, MessagePlan>();
  private readonly bySignature = new Map<string, MessagePlan>();
  private readonly typeNames = new Set<string>();
  private readonly building = new Set<object>();
  private wellKnown: Record<'time' | 'intOrString' | 'quantity' | 'raw', string> | undefined;
  private readonly listWrappers = new Map<string, string>();

  /** The plan (and protobufjs type) of an object schema. Throws for constructs the wire cannot carry. */
  plan(schema: object, fallbackName = 'Anonymous'): MessagePlan {
    const plan = this.objectPlan(schema as Json, fallbackName, fallbackName);
    this.root.resolveAll();
    return plan;
  }

  private uniqueTypeName(name: string): string {
    let base = name.replace(/[^A-Za-z0-9_]/g, '_');
    if (!/^[A-Za-z]/.test(base)) base = `T${base}`;
    let candidate = base;
    for (let n = 2; this.typeNames.has(candidate); n++) candidate = `${base}_${n}`;
    this.typeNames.add(candidate);
    return candidate;
  }

  private wellKnownTypes(): Record<'time' | 'intOrString' | 'quantity' | 'raw', string> {
    if (this.wellKnown) return this.wellKnown;
    const time = new protobuf.Type(this.uniqueTypeName('Timestamp'))
      .add(new protobuf.Field('seconds', 1, 'int64'))
      .add(new protobuf.Field('nanos', 2, 'int32'));
    const intOrString = new protobuf.Type(this.uniqueTypeName('IntOrString'))
      .add(new protobuf.Field('type', 1, 'int64'))
      .add(new protobuf.Field('intVal', 2, 'int32'))
      .add(new protobuf.Field('strVal', 3, 'string'));
    const quantity = new protobuf.Type(this.uniqueTypeName('Quantity'))
      .add(new protobuf.Field('string', 1, 'string'));
    const raw = new protobuf.Type(this.uniqueTypeName('RawJSON'))
      .add(new protobuf.Field('raw', 1, 'bytes'));
    for (const t of [time, intOrString, quantity, raw]) this.root.add(t);
    this.wellKnown = { time: time.name, intOrString: intOrString.name, quantity: quantity.name, raw: raw.name };
    return this.wellKnown;
  }

  /** Classifies one property schema: its shape (single, list, map) and how its values travel. */
  private valueOf(schema: Json, nameHint: string, path: string): { shape: FieldPlan['shape']; value: ValuePlan } {
    const single = (value: ValuePlan) => ({ shape: 'single' as const, value });
    if (schema['x-orch-preserve-unknown-fields'] === true) return single({ kind: 'raw' });
    const typeName = schema['x-orch-type'];
    if (typeName === timeName) return single({ kind: 'time', micro: false });
    if (typeName === microTimeName) return single({ kind: 'time', micro: true });
    if (typeName === intOrStringName || schema['x-orch-int-or-string'] === true) return single({ kind: 'intOrString' });
    if (typeName === quantityName) return single({ kind: 'quantity' });
    switch (schema.type) {
      case 'string':
        return single({ kind: 'scalar', type: schema.format === 'byte' ? 'bytes' : 'string' });
      case 'boolean':
        return single({ kind: 'scalar', type: 'bool' });
      case 'integer':
        return single({ kind: 'scalar', type: schema.format === 'int32' ? 'int32' : 'int64' });
      case 'number':
        return single({ kind: 'scalar', type: 'double' });
      case 'array': {
        if (!isObject(schema.items)) break;
        const item = this.valueOf(schema.items, nameHint, `${path}[]`);
        if (item.shape !== 'single') break;
        return { shape: 'list', value: item.value };
      }
      case 'object': {
        if (isObject(schema.properties)) {
          return single({ kind: 'message', plan: this.objectPlan(schema, nameHint, path) });
        }
        const values = isObject(schema.patternProperties) ? Object.values(schema.patternProperties) : [];
        const valueSchema = values.length === 1 ? values[0] : schema.additionalProperties;
        if (!isObject(valueSchema)) break;
        const value = this.valueOf(valueSchema, `${nameHint}Value`, `${path}{}`);
        if (value.shape === 'list') return { shape: 'map', value: this.listWrapper(value.value) };
        if (value.shape !== 'single') break;
        return { shape: 'map', value: value.value };
      }
    }
    throw new Error(`protobuf: cannot map the schema at ${path} to a protobuf field`);
  }

  private objectPlan(schema: Json, fallbackName: string, path: string): MessagePlan {
    const cached = this.bySchema.get(schema);
    if (cached) return cached;
    if (this.building.has(schema)) throw new Error(`protobuf: recursive schema at ${path}`);
    this.building.add(schema);
    try {
      const name = typeof schema['x-orch-type'] === 'string' ? schema['x-orch-type'] : fallbackName;
      const fields: { field: FieldPlan; at: number[] }[] = [];
      const properties = isObject(schema.properties) ? schema.properties : {};
      for (const [prop, propSchema] of Object.entries(properties)) {
        if (!isObject(propSchema)) continue;
        const id = propSchema['x-proto'];
        // apiVersion and kind of top-level objects travel in the envelope, not in the message.
        if (id === undefined) continue;
        const fieldPath = `${path}.${prop}`;
        if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > maxFieldNumber || (id >= 19000 && id <= 19999)) {
          throw new Error(`protobuf: invalid x-proto ${String(id)} at ${fieldPath}`);
        }
        const { shape, value } = this.valueOf(propSchema, `${name}_${prop}`, fieldPath);
        const field: FieldPlan = { json: prop, proto: protoFieldName(prop, id), id, shape, value };
        const embeddedAt = propSchema['x-orch-proto-embedded'];
        const at = embeddedAt === undefined ? [] : Array.isArray(embeddedAt) ? embeddedAt : [embeddedAt];
        for (const n of at) {
          if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > maxFieldNumber) {
            throw new Error(`protobuf: invalid x-orch-proto-embedded ${String(embeddedAt)} at ${fieldPath}`);
          }
        }
        fields.push({ field, at: at as number[] });
      }
      const { direct, embedded } = this.embeddedGroups(name, fields, path);
      const plan = this.message(name, direct, embedded, path);
      this.bySchema.set(schema, plan);
      return plan;
    } finally {
      this.building.delete(schema);
    }
  }

  /**
   * The fields of a message that are its own, and the sub-messages of its inline-embedded structs,
   * built recursively for structs embedded in embedded structs (`at` is the path of field numbers).
   */
  private embeddedGroups(name: string, fields: { field: FieldPlan; at: number[] }[], path: string): { direct: FieldPlan[]; embedded: EmbeddedPlan[] } {
    const direct: FieldPlan[] = [];
    const groups = new Map<number, { field: FieldPlan; at: number[] }[]>();
    for (const f of fields) {
      if (f.at.length === 0) {
        direct.push(f.field);
        continue;
      }
      const group = groups.get(f.at[0]!) ?? [];
      group.push({ field: f.field, at: f.at.slice(1) });
      groups.set(f.at[0]!, group);
    }
    const embedded: EmbeddedPlan[] = [];
    for (const [id, inner] of groups) {
      const sub = this.embeddedGroups(`${name}_Embedded${id}`, inner, `${path}<embedded ${id}>`);
      const plan = this.message(`${name}_Embedded${id}`, sub.direct, sub.embedded, `${path}<embedded ${id}>`);
      embedded.push({ proto: `_embedded${id}`, id, plan });
    }
    return { direct, embedded };
  }

  private message(name: string, fields: FieldPlan[], embedded: EmbeddedPlan[], path: string): MessagePlan {
    const ids = new Map<number, string>();
    for (const f of [...fields, ...embedded.map((e) => ({ id: e.id, json: `<embedded ${e.id}>` }))]) {
      const other = ids.get(f.id);
      if (other !== undefined) throw new Error(`protobuf: ${path}: ${f.json} and ${other} share field number ${f.id}`);
      ids.set(f.id, f.json);
    }
    const signature = [
      name,
      ...fields.map((f) => `${f.json}=${f.id}:${f.shape}:${describe(f.value)}`),
      ...embedded.map((e) => `<${e.id}>:${e.plan.type.name}`),
    ].join('|');
    const existing = this.bySignature.get(signature);
    if (existing) return existing;

    const type = new protobuf.Type(this.uniqueTypeName(name));
    for (const f of fields) {
      const valueType = this.protoTypeOf(f.value);
      if (f.shape === 'map') type.add(new protobuf.MapField(f.proto, f.id, 'string', valueType));
      else if (f.shape === 'list') type.add(new protobuf.Field(f.proto, f.id, valueType, 'repeated'));
      else type.add(new protobuf.Field(f.proto, f.id, valueType));
    }
    for (const e of embedded) type.add(new protobuf.Field(e.proto, e.id, e.plan.type.name));
    this.root.add(type);
    const plan: MessagePlan = { name, type, fields, embedded };
    this.bySignature.set(signature, plan);
    return plan;
  }

  /** The message {repeated <item> items = 1} carrying a list where only a single value fits. */
  private listWrapper(item: ValuePlan): ValuePlan {
    const key = `list<${describe(item)}>`;
    let typeName = this.listWrappers.get(key);
    if (!typeName) {
      typeName = this.uniqueTypeName(`ListOf_${describe(item)}`);
      this.root.add(new protobuf.Type(typeName).add(new protobuf.Field('items', 1, this.protoTypeOf(item), 'repeated')));
      this.listWrappers.set(key, typeName);
    }
    return { kind: 'list', item, typeName };
  }

  private protoTypeOf(v: ValuePlan): string {
    switch (v.kind) {
      case 'scalar': return v.type;
      case 'time': return this.wellKnownTypes().time;
      case 'intOrString': return this.wellKnownTypes().intOrString;
      case 'quantity': return this.wellKnownTypes().quantity;
      case 'raw': return this.wellKnownTypes().raw;
      case 'message': return v.plan.type.name;
      case 'list': return v.typeName;
    }
  }
}
