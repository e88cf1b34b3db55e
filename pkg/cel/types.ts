// CEL types from a structural (OpenAPI v3) schema, as upstream's SchemaDeclType derives them:
// objects with their properties as fields (names escaped), maps from additionalProperties, lists,
// int-or-string as dyn, embedded resources with apiVersion, kind and metadata, formats byte,
// date, date-time and duration as bytes, timestamps and durations; with the size bounds
// (maxLength, maxItems, maxProperties, or what a 3 MiB request can hold) the cost estimate uses.
import type { Environment } from '@marcbachmann/cel-js';
import { escapeName } from './escaping.js';
import { equalValues } from './values.js';

/** The parts of a structural schema CEL reads (CRD JSONSchemaProps). */
export interface Schema {
  type?: string;
  format?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  required?: string[];
  enum?: unknown[];
  maxLength?: number;
  maxItems?: number;
  maxProperties?: number;
  default?: unknown;
  nullable?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

/** One `x-kubernetes-validations` entry. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** The largest request the server takes, from which unbounded sizes are estimated (upstream's 3 MiB). */
export const maxRequestSizeBytes = 3 * 1024 * 1024;

interface Bounds {
  /** The smallest JSON a value of the type serialises to. */
  minSize: number;
  /** The most elements (list items, map entries, string characters) a value can have. */
  maxElements: number;
}

export type DeclType = Bounds & (
  | { kind: 'simple'; cel: 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes' | 'timestamp' | 'duration' | 'dyn' | 'null_type' }
  | { kind: 'list'; elem: DeclType; listType?: string; mapKeys?: string[] }
  | { kind: 'map'; value: DeclType }
  | { kind: 'object'; fields: Map<string, DeclField>; name?: string }
);

export interface DeclField {
  /** The property's name in JSON (the field's CEL name is the escaped key of the map). */
  jsonName: string;
  type: DeclType;
  required: boolean;
}

const simple = (cel: Extract<DeclType, { kind: 'simple' }>['cel'], minSize: number, maxElements = 0): DeclType => ({ kind: 'simple', cel, minSize, maxElements });
const maxString = maxRequestSizeBytes - 2;

function withTypeAndObjectMeta(s: Schema): Schema {
  const p = s.properties ?? {};
  const str: Schema = { type: 'string' };
  if (p.kind?.type === 'string' && p.apiVersion?.type === 'string' && p.metadata?.type === 'object'
    && p.metadata.properties?.name?.type === 'string' && p.metadata.properties.generateName?.type === 'string') return s;
  return { ...s, properties: { ...p, kind: str, apiVersion: str, metadata: { type: 'object', properties: { name: str, generateName: str } } } };
}

function stringType(s: Schema): DeclType {
  const perRequest = s['x-kubernetes-int-or-string'] ? maxString : maxString;
  switch (s.format) {
    case 'byte':
      return simple('bytes', 2, s.maxLength !== undefined ? Math.max(0, s.maxLength) : perRequest);
    case 'duration':
      return simple('duration', 3, 32);
    case 'date':
      return simple('timestamp', 12, 12);
    case 'date-time':
      return simple('timestamp', 21, 32);
  }
  if (s.maxLength !== undefined) return simple('string', 2, Math.max(0, s.maxLength) * 4);
  const enums = (s.enum ?? []).filter((e): e is string => typeof e === 'string');
  if (enums.length > 0) return simple('string', 2, Math.max(...enums.map((e) => e.length)));
  return simple('string', 2, perRequest);
}

/** The CEL type of values of `s`, or undefined where CEL cannot see them (upstream's SchemaDeclType). */
export function schemaDeclType(s: Schema | undefined, isResourceRoot = false): DeclType | undefined {
  if (!s) return undefined;
  if (s['x-kubernetes-int-or-string']) return simple('dyn', 1, maxString);
  if (isResourceRoot) s = withTypeAndObjectMeta(s);
  switch (s.type) {
    case 'array': {
      const elem = schemaDeclType(s.items, s.items?.['x-kubernetes-embedded-resource'] === true);
      if (!elem) return undefined;
      const max = s.maxItems !== undefined ? Math.max(0, s.maxItems) : Math.floor(maxString / (elem.minSize + 1));
      return { kind: 'list', elem, minSize: 2, maxElements: max, listType: s['x-kubernetes-list-type'], mapKeys: s['x-kubernetes-list-map-keys'] };
    }
    case 'object': {
      const ap = s.additionalProperties;
      if (ap && typeof ap === 'object') {
        const value = schemaDeclType(ap, ap['x-kubernetes-embedded-resource'] === true);
        if (!value) return undefined;
        const max = s.maxProperties !== undefined ? Math.max(0, s.maxProperties) : Math.floor(maxString / (value.minSize + 6));
        return { kind: 'map', value, minSize: 2, maxElements: max };
      }
      const fields = new Map<string, DeclField>();
      const required = new Set(s.required ?? []);
      let minSize = 2;
      for (const [name, prop] of Object.entries(s.properties ?? {})) {
        const t = schemaDeclType(prop, prop['x-kubernetes-embedded-resource'] === true);
        if (!t) continue;
        const escaped = escapeName(name);
        if (escaped !== undefined) fields.set(escaped, { jsonName: name, type: t, required: required.has(name) });
        if (required.has(name) && prop.default === undefined) minSize += name.length + t.minSize + 4;
      }
      return { kind: 'object', fields, minSize, maxElements: 0 };
    }
    case 'string':
      return stringType(s);
    case 'boolean':
      return simple('bool', 4);
    case 'number':
      return simple('double', 1);
    case 'integer':
      return simple('int', 1);
  }
  return undefined;
}

/** The most values the ~3 MiB request can hold of a type this small (upstream's maxCardinality). */
export function maxCardinality(minSize: number): number {
  return Math.floor(maxRequestSizeBytes / (minSize + 1));
}

/**
 * Names the object types of `t` (`<name>`, `<name>.<field>`, `<name>._idx`, `<name>._elem`, as
 * upstream's MaybeAssignTypeName, whose `@idx` and `@elem` the evaluator cannot parse in an
 * operator's signature) and registers them on `env`; returns the CEL type name of `t`.
 */
export function registerDeclType(env: Environment, t: DeclType, name: string): string {
  switch (t.kind) {
    case 'simple':
      return t.cel === 'timestamp' ? 'google.protobuf.Timestamp' : t.cel === 'duration' ? 'google.protobuf.Duration' : t.cel;
    case 'list':
      return `list<${registerDeclType(env, t.elem, `${name}._idx`)}>`;
    case 'map':
      return `map<string, ${registerDeclType(env, t.value, `${name}._elem`)}>`;
    case 'object': {
      const fields: Record<string, string> = {};
      for (const [field, f] of t.fields) fields[field] = registerDeclType(env, f.type, `${name}.${field}`);
      t.name = name;
      env.registerType(name, { fields });
      env.registerOperator(`${name} == ${name}`, (a: unknown, b: unknown) => equalValues(a, b));
      return name;
    }
  }
}

/** `v` (JSON) as the CEL value of type `t`: integers as ints, numbers as doubles, names escaped, formats parsed. */
export function toCelValue(v: unknown, t: DeclType | undefined): unknown {
  if (v === null || v === undefined) return v;
  if (!t) return v;
  switch (t.kind) {
    case 'simple':
      switch (t.cel) {
        case 'int':
          return typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v;
        case 'double':
          return typeof v === 'number' ? v : v;
        case 'dyn':
          return typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v;
        case 'bytes':
          return typeof v === 'string' ? new Uint8Array(Buffer.from(v, 'base64')) : v;
        case 'timestamp':
          return typeof v === 'string' ? new Date(v) : v;
        default:
          return v;
      }
    case 'list':
      return Array.isArray(v) ? v.map((x) => toCelValue(x, t.elem)) : v;
    case 'map':
      if (typeof v !== 'object' || Array.isArray(v)) return v;
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toCelValue(x, t.value)]));
    case 'object': {
      if (typeof v !== 'object' || Array.isArray(v)) return v;
      const out: Record<string, unknown> = {};
      const o = v as Record<string, unknown>;
      for (const [field, f] of t.fields) if (o[f.jsonName] !== undefined) out[field] = toCelValue(o[f.jsonName], f.type);
      return out;
    }
  }
}
