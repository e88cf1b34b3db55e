// Structural schemas, as upstream's apiextensions-apiserver reads a CRD version's schema
// (pkg/apiserver/schema: NewStructural): one type per place of an object (type, properties,
// items, additionalProperties, the x-kubernetes-* extensions), with value validations
// (formats, bounds, enum, allOf/anyOf/oneOf/not...) kept apart. Pruning, defaulting, list-type
// validation, server-side apply and the published OpenAPI all walk this form.
import { entriesOf, deepCopyJSON, isObject, type JSONSchemaProps, type ValidationRule } from './json-schema-props.js';

export interface Generic {
  description: string;
  type: string;
  title: string;
  /** The default value; undefined when there is none (a `default: null` is none too, as upstream). */
  default: unknown;
  additionalProperties?: StructuralOrBool;
  nullable: boolean;
}

/** `additionalProperties`: a schema for every other key (bool true), or false. */
export interface StructuralOrBool {
  structural?: Structural;
  bool: boolean;
}

export interface Extensions {
  xPreserveUnknownFields: boolean;
  xEmbeddedResource: boolean;
  xIntOrString: boolean;
  xListMapKeys: string[];
  xListType?: string;
  xMapType?: string;
  xValidations: ValidationRule[];
}

/** The scalar checks of a value schema, in both its structural form and the validator's (value-schema.ts). */
export interface ValueChecks {
  format: string;
  maximum?: number;
  exclusiveMaximum: boolean;
  minimum?: number;
  exclusiveMinimum: boolean;
  maxLength?: number;
  minLength?: number;
  pattern: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
}

export interface ValueValidation extends ValueChecks {
  required?: string[];
  allOf: NestedValueValidation[];
  oneOf: NestedValueValidation[];
  anyOf: NestedValueValidation[];
  not?: NestedValueValidation;
}

/** A value validation inside allOf/anyOf/oneOf/not: what a structural schema may say there, and what it may not. */
export interface NestedValueValidation {
  valueValidation: ValueValidation;
  items?: NestedValueValidation;
  properties?: Map<string, NestedValueValidation>;
  forbiddenGenerics: Generic;
  forbiddenExtensions: Extensions;
}

export interface Structural extends Generic, Extensions {
  items?: Structural;
  properties?: Map<string, Structural>;
  valueValidation?: ValueValidation;
}

/** A schema upstream cannot read as structural at all (NewStructural's error). */
export class StructuralSchemaError extends Error {}

export function emptyGeneric(): Generic {
  return { description: '', type: '', title: '', default: undefined, nullable: false };
}

export function emptyExtensions(): Extensions {
  return { xPreserveUnknownFields: false, xEmbeddedResource: false, xIntOrString: false, xListMapKeys: [], xValidations: [] };
}

export function emptyValueValidation(): ValueValidation {
  return { format: '', exclusiveMaximum: false, exclusiveMinimum: false, pattern: '', uniqueItems: false, allOf: [], oneOf: [], anyOf: [] };
}

/** An empty structural schema: no type, nothing declared (upstream's zero Structural). */
export function emptyStructural(): Structural {
  return { ...emptyGeneric(), ...emptyExtensions() };
}

function checkSupported(s: JSONSchemaProps): void {
  const fail = (what: string) => { throw new StructuralSchemaError(`OpenAPIV3Schema '${what}' is not supported`); };
  if (s.id) fail('id');
  if (s.$schema) fail('schema');
  if (s.$ref) fail('$ref');
  if (entriesOf(s.patternProperties).length > 0) fail('patternProperties');
  if (entriesOf(s.dependencies).length > 0) fail('dependencies');
  if (s.additionalItems !== undefined) fail('additionalItems');
  if (entriesOf(s.definitions).length > 0) fail('definitions');
}

/** The single schema of `items`, undefined for none; throws for a list of schemas, as upstream. */
function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  if (Array.isArray(s.items)) {
    if (s.items.length > 0) throw new StructuralSchemaError("OpenAPIV3Schema 'items' must be a schema, but is an array");
    return undefined;
  }
  return isObject(s.items) ? s.items : undefined;
}

function newGeneric(s: JSONSchemaProps): Generic {
  const g: Generic = {
    description: s.description ?? '',
    type: s.type ?? '',
    title: s.title ?? '',
    default: s.default === null ? undefined : s.default,
    nullable: s.nullable === true,
  };
  if (s.additionalProperties !== undefined) {
    g.additionalProperties = isObject(s.additionalProperties)
      ? { structural: newStructural(s.additionalProperties), bool: true }
      : { bool: s.additionalProperties === true };
  }
  return g;
}

function newExtensions(s: JSONSchemaProps): Extensions {
  const preserve = s['x-kubernetes-preserve-unknown-fields'];
  if (preserve === false) throw new StructuralSchemaError("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined");
  const x: Extensions = {
    xPreserveUnknownFields: preserve === true,
    xEmbeddedResource: s['x-kubernetes-embedded-resource'] === true,
    xIntOrString: s['x-kubernetes-int-or-string'] === true,
    xListMapKeys: s['x-kubernetes-list-map-keys'] ?? [],
    xValidations: s['x-kubernetes-validations'] ?? [],
  };
  if (s['x-kubernetes-list-type'] !== undefined) x.xListType = s['x-kubernetes-list-type'];
  if (s['x-kubernetes-map-type'] !== undefined) x.xMapType = s['x-kubernetes-map-type'];
  return x;
}

function newValueValidation(s: JSONSchemaProps): ValueValidation {
  const v: ValueValidation = {
    format: s.format ?? '',
    exclusiveMaximum: s.exclusiveMaximum === true,
    exclusiveMinimum: s.exclusiveMinimum === true,
    pattern: s.pattern ?? '',
    uniqueItems: s.uniqueItems === true,
    allOf: (s.allOf ?? []).map(newNestedValueValidation),
    anyOf: (s.anyOf ?? []).map(newNestedValueValidation),
    oneOf: (s.oneOf ?? []).map(newNestedValueValidation),
  };
  for (const k of ['maximum', 'minimum', 'maxLength', 'minLength', 'maxItems', 'minItems', 'multipleOf', 'maxProperties', 'minProperties'] as const) {
    if (typeof s[k] === 'number') v[k] = s[k];
  }
  if (s.enum !== undefined && s.enum.length > 0) v.enum = s.enum;
  if (s.required !== undefined) v.required = s.required;
  if (s.not !== undefined) v.not = newNestedValueValidation(s.not);
  return v;
}

function newNestedValueValidation(s: JSONSchemaProps): NestedValueValidation {
  checkSupported(s);
  const v: NestedValueValidation = {
    valueValidation: newValueValidation(s),
    forbiddenGenerics: newGeneric(s),
    forbiddenExtensions: newExtensions(s),
  };
  const items = itemsSchema(s);
  if (items !== undefined) v.items = newNestedValueValidation(items);
  if (isObject(s.properties)) v.properties = new Map(entriesOf(s.properties).map(([k, p]) => [k, newNestedValueValidation(p)]));
  return v;
}

/** The structural form of a CRD version's schema; throws StructuralSchemaError as upstream's NewStructural fails. */
export function newStructural(s: JSONSchemaProps): Structural {
  checkSupported(s);
  const vv = newValueValidation(s);
  const ss: Structural = { ...newGeneric(s), ...newExtensions(s), valueValidation: vv };
  const items = itemsSchema(s);
  if (items !== undefined) ss.items = newStructural(items);
  const props = entriesOf(s.properties);
  if (props.length > 0) ss.properties = new Map(props.map(([k, p]) => [k, newStructural(p)]));
  return ss;
}

// ---- copies and walks ----

function cloneGeneric(g: Generic): Generic {
  const out: Generic = { ...g, default: deepCopyJSON(g.default) };
  if (g.additionalProperties !== undefined) {
    out.additionalProperties = { bool: g.additionalProperties.bool };
    if (g.additionalProperties.structural !== undefined) out.additionalProperties.structural = cloneStructural(g.additionalProperties.structural);
  }
  return out;
}

function cloneValueValidation(v: ValueValidation): ValueValidation {
  const out: ValueValidation = {
    ...v,
    allOf: v.allOf.map(cloneNested),
    anyOf: v.anyOf.map(cloneNested),
    oneOf: v.oneOf.map(cloneNested),
  };
  if (v.enum !== undefined) out.enum = deepCopyJSON(v.enum);
  if (v.required !== undefined) out.required = [...v.required];
  if (v.not !== undefined) out.not = cloneNested(v.not);
  return out;
}

function cloneNested(n: NestedValueValidation): NestedValueValidation {
  const out: NestedValueValidation = {
    valueValidation: cloneValueValidation(n.valueValidation),
    forbiddenGenerics: cloneGeneric(n.forbiddenGenerics),
    forbiddenExtensions: { ...n.forbiddenExtensions },
  };
  if (n.items !== undefined) out.items = cloneNested(n.items);
  if (n.properties !== undefined) out.properties = new Map([...n.properties].map(([k, p]) => [k, cloneNested(p)]));
  return out;
}

/** A deep copy, defaults included. */
export function cloneStructural(s: Structural): Structural {
  const out: Structural = { ...s, ...cloneGeneric(s) };
  if (s.items !== undefined) out.items = cloneStructural(s.items);
  if (s.properties !== undefined) out.properties = new Map([...s.properties].map(([k, p]) => [k, cloneStructural(p)]));
  if (s.valueValidation !== undefined) out.valueValidation = cloneValueValidation(s.valueValidation);
  return out;
}

/** Calls `fn` on every structural node (items, properties, additionalProperties, also those inside value validations). */
export function visitStructural(s: Structural, fn: (s: Structural) => void): void {
  fn(s);
  if (s.items !== undefined) visitStructural(s.items, fn);
  for (const p of s.properties?.values() ?? []) visitStructural(p, fn);
  if (s.additionalProperties?.structural !== undefined) visitStructural(s.additionalProperties.structural, fn);
  if (s.valueValidation !== undefined) visitNestedIn(s.valueValidation, fn);
}

function visitNestedIn(v: ValueValidation, fn: (s: Structural) => void): void {
  for (const n of [...v.allOf, ...v.anyOf, ...v.oneOf, ...(v.not ? [v.not] : [])]) visitNested(n, fn);
}

function visitNested(n: NestedValueValidation, fn: (s: Structural) => void): void {
  if (n.items !== undefined) visitNested(n.items, fn);
  for (const p of n.properties?.values() ?? []) visitNested(p, fn);
  if (n.forbiddenGenerics.additionalProperties?.structural !== undefined) visitStructural(n.forbiddenGenerics.additionalProperties.structural, fn);
  visitNestedIn(n.valueValidation, fn);
}

/** Whether `anyOf` is exactly `[{type: integer}, {type: string}]`, the spelled-out form of int-or-string. */
function isIntOrStringAnyOf(anyOf: NestedValueValidation[]): boolean {
  if (anyOf.length !== 2) return false;
  return anyOf.every((n, i) => isBareType(n, i === 0 ? 'integer' : 'string'));
}

function isBareType(n: NestedValueValidation, type: string): boolean {
  const g = n.forbiddenGenerics;
  const x = n.forbiddenExtensions;
  const v = n.valueValidation;
  return g.type === type && !g.description && !g.title && g.default === undefined && g.additionalProperties === undefined && !g.nullable
    && !x.xPreserveUnknownFields && !x.xEmbeddedResource && !x.xIntOrString && x.xListMapKeys.length === 0 && x.xListType === undefined
    && x.xMapType === undefined && x.xValidations.length === 0 && n.items === undefined && n.properties === undefined
    && isEmptyValueValidation(v);
}

/** Whether a value validation says nothing. */
export function isEmptyValueValidation(v: ValueValidation): boolean {
  return !v.format && v.maximum === undefined && !v.exclusiveMaximum && v.minimum === undefined && !v.exclusiveMinimum
    && v.maxLength === undefined && v.minLength === undefined && !v.pattern && v.maxItems === undefined && v.minItems === undefined
    && !v.uniqueItems && v.multipleOf === undefined && v.enum === undefined && v.maxProperties === undefined && v.minProperties === undefined
    && v.required === undefined && v.allOf.length === 0 && v.anyOf.length === 0 && v.oneOf.length === 0 && v.not === undefined;
}

/** Whether the schema spells out int-or-string as `anyOf: [{type: integer}, {type: string}]`. */
export function isIntOrStringAnyOfPattern(s: Structural): boolean {
  return s.valueValidation !== undefined && isIntOrStringAnyOf(s.valueValidation.anyOf);
}

/** Whether the schema spells out int-or-string as the first `allOf` holding that anyOf. */
export function isIntOrStringAllOfPattern(s: Structural): boolean {
  const first = s.valueValidation?.allOf[0];
  return first !== undefined && isIntOrStringAnyOf(first.valueValidation.anyOf);
}

/** The schema of a field of an object of schema `s`: its property, else the additionalProperties schema. */
export function fieldSchemaOf(s: Structural | undefined, key: string): Structural | undefined {
  if (s === undefined) return undefined;
  return s.properties?.get(key) ?? s.additionalProperties?.structural;
}

/** `s`, marked as an embedded resource (a resource's root is one: apiVersion, kind and metadata are its own). */
export function asResourceRoot(s: Structural | undefined): Structural {
  const base = s ?? emptyStructural();
  return base.xEmbeddedResource ? base : { ...base, xEmbeddedResource: true };
}
