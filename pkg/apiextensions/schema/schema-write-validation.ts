// What a CRD version's schema must satisfy when the CRD is written (the schema part of upstream's
// CRD validation): structural, defaults valid and pruned, the keywords and x-kubernetes-*
// extensions used consistently (list types on arrays with item schemas, map keys that are
// required scalar properties, map types on objects, atomic set items...), only what the status
// sub-resource can project at the root. The errors are upstream's, at upstream's paths
// (`spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: ...`). The CEL
// rules of x-kubernetes-validations are compiled and costed by pkg/cel, not here.
import { forbidden, invalid, notSupported, Path, required, type FieldError } from '../../runtime/field-errors.js';
import { validateDefaults, type DefaultRulesValidator } from './default-validation.js';
import { goBadValue } from './go-value.js';
import { entriesOf, isObject, isSchema, jsonEqual, type JSONSchemaProps } from './json-schema-props.js';
import { pruneDefaults } from './prune-defaults.js';
import { cloneStructural, newStructural, StructuralSchemaError, type Structural } from './structural.js';
import { validateStructural } from './structural-validation.js';

export interface SchemaValidationOptions {
  /** The version has a status sub-resource: the root may only hold what projects onto `status`. */
  statusSubresource: boolean;
  /**
   * Upstream tightened these rules over time; an update keeps accepting what the stored CRD
   * already did (schemaValidationOptionsFor computes them from the old schemas). All true for a new CRD.
   */
  requireStructuralSchema?: boolean;
  requirePrunedDefaults?: boolean;
  requireAtomicSetType?: boolean;
  requireMapListKeysMapSetValidation?: boolean;
  requireValidPropertyType?: boolean;
  /** Defaults may be set (always, for apiextensions v1). */
  allowDefaults?: boolean;
  /** Checks defaults against the schema's CEL rules (pkg/cel). */
  rules?: DefaultRulesValidator;
}

const openapiV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];

/** Upstream's names of the root's keywords (Go field names), in the order Go visits them, and those the status sub-resource allows. */
const rootFields: [keyof JSONSchemaProps, string][] = [
  ['id', 'ID'], ['$schema', 'Schema'], ['$ref', 'Ref'], ['description', 'Description'], ['type', 'Type'], ['format', 'Format'],
  ['title', 'Title'], ['default', 'Default'], ['maximum', 'Maximum'], ['exclusiveMaximum', 'ExclusiveMaximum'], ['minimum', 'Minimum'],
  ['exclusiveMinimum', 'ExclusiveMinimum'], ['maxLength', 'MaxLength'], ['minLength', 'MinLength'], ['pattern', 'Pattern'],
  ['maxItems', 'MaxItems'], ['minItems', 'MinItems'], ['uniqueItems', 'UniqueItems'], ['multipleOf', 'MultipleOf'], ['enum', 'Enum'],
  ['maxProperties', 'MaxProperties'], ['minProperties', 'MinProperties'], ['required', 'Required'], ['items', 'Items'], ['allOf', 'AllOf'],
  ['oneOf', 'OneOf'], ['anyOf', 'AnyOf'], ['not', 'Not'], ['properties', 'Properties'], ['additionalProperties', 'AdditionalProperties'],
  ['patternProperties', 'PatternProperties'], ['dependencies', 'Dependencies'], ['additionalItems', 'AdditionalItems'],
  ['definitions', 'Definitions'], ['externalDocs', 'ExternalDocs'], ['example', 'Example'], ['nullable', 'Nullable'],
  ['x-kubernetes-preserve-unknown-fields', 'XPreserveUnknownFields'], ['x-kubernetes-embedded-resource', 'XEmbeddedResource'],
  ['x-kubernetes-int-or-string', 'XIntOrString'], ['x-kubernetes-list-map-keys', 'XListMapKeys'], ['x-kubernetes-list-type', 'XListType'],
  ['x-kubernetes-map-type', 'XMapType'], ['x-kubernetes-validations', 'XValidations'],
];
const allowedAtRoot = ['Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength', 'MinLength',
  'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties', 'ExternalDocs', 'Example', 'XPreserveUnknownFields', 'XValidations'];

/** Whether a keyword holds Go's zero value (false, '', absent), which upstream skips. */
const isZero = (v: unknown) => v === undefined || v === false || v === '' || v === null;

/**
 * The errors of a CRD version's schema (`schemaPath`: `spec.versions[i].schema`, whose
 * `openAPIV3Schema` is `schema`), as upstream reports them when the CRD is created or updated.
 */
export function validateCustomResourceSchema(schemaPath: Path, schema: JSONSchemaProps, opts: SchemaValidationOptions): FieldError[] {
  const o = {
    requireStructuralSchema: true, requirePrunedDefaults: true, requireAtomicSetType: true,
    requireMapListKeysMapSetValidation: true, requireValidPropertyType: true, allowDefaults: true, ...opts,
  };
  const errs: FieldError[] = [];
  const path = schemaPath.child('openAPIV3Schema');
  if (o.statusSubresource) {
    for (const [key, goName] of rootFields) {
      if (isZero(schema[key])) continue;
      if (goName === 'Type') {
        if (schema.type !== 'object') {
          errs.push(invalid(schemaPath.child('openAPIV3Schema.type'), schema.type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
          break;
        }
        continue;
      }
      if (!allowedAtRoot.includes(goName)) {
        errs.push(invalid(path, goBadValue(schema), `only [${allowedAtRoot.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`));
        break;
      }
    }
  }
  if (schema.nullable) errs.push(forbidden(schemaPath.child('openAPIV3Schema.nullable'), 'nullable cannot be true at the root'));

  const initErrs: FieldError[] = [];
  if (o.requireStructuralSchema) {
    try {
      const ss = newStructural(schema);
      const structural = validateStructural(path, ss);
      if (structural.length > 0) errs.push(...structural);
      else errs.push(...validateDefaults(path, ss, { requirePrunedDefaults: o.requirePrunedDefaults, ...(o.rules ? { rules: o.rules } : {}) }));
    } catch (e) {
      if (!(e instanceof StructuralSchemaError)) throw e;
      // These overlap with the checks below, so they are shown only when nothing else is wrong.
      initErrs.push(invalid(path, '', e.message));
    }
  }
  errs.push(...validateOpenAPISchema(schema, path, { ...o, insideResourceMeta: false }, true));
  if (errs.length === 0) errs.push(...initErrs);
  return errs;
}

interface Walk extends Required<Omit<SchemaValidationOptions, 'rules' | 'statusSubresource'>> {
  disallowDefaultsReason?: string;
  insideResourceMeta: boolean;
}

const metaFields = new Set(['metadata', 'kind', 'apiVersion']);

function validateOpenAPISchema(s: JSONSchemaProps | undefined, path: Path, w: Walk, isRoot: boolean): FieldError[] {
  if (!isSchema(s)) return [];
  const errs = standardChecks(s, path, w);
  if (s.uniqueItems) errs.push(forbidden(path.child('uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  if (s.additionalProperties !== undefined) {
    const ap = s.additionalProperties;
    if (entriesOf(s.properties).length > 0 && (ap === false || isObject(ap))) {
      errs.push(forbidden(path.child('additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    // Pruning without an actual value is ambiguous for metadata's maps.
    const sub = w.insideResourceMeta ? { ...w, allowDefaults: false, disallowDefaultsReason: 'inside additionalProperties applying to object metadata' } : w;
    if (isObject(ap)) errs.push(...validateOpenAPISchema(ap, path.child('additionalProperties'), sub, false));
  }
  for (const [name, prop] of entriesOf(s.properties)) {
    let sub = w;
    if ((isRoot || s['x-kubernetes-embedded-resource']) && metaFields.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = { ...sub, allowDefaults: false, disallowDefaultsReason: `in top-level ${name}` };
    }
    errs.push(...validateOpenAPISchema(prop, path.child('properties').key(name), sub, false));
  }
  errs.push(...validateOpenAPISchema(s.not, path.child('not'), w, false));
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    (s[key] ?? []).forEach((sub, i) => errs.push(...validateOpenAPISchema(sub, path.child(key).index(i), w, false)));
  }
  for (const [name, def] of entriesOf(s.definitions)) errs.push(...validateOpenAPISchema(def, path.child('definitions').key(name), w, false));
  if (Array.isArray(s.items)) s.items.forEach((sub, i) => errs.push(...validateOpenAPISchema(sub, path.child('items').index(i), w, false)));
  else errs.push(...validateOpenAPISchema(s.items, path.child('items'), w, false));
  for (const [name, dep] of entriesOf(s.dependencies)) {
    if (isObject(dep)) errs.push(...validateOpenAPISchema(dep as JSONSchemaProps, path.child('dependencies').key(name), w, false));
  }
  errs.push(...extensionChecks(s, path, w));
  return errs;
}

/** Upstream's specStandardValidatorV3: keywords CRD schemas may not use. */
function standardChecks(s: JSONSchemaProps, path: Path, w: Walk): FieldError[] {
  const errs: FieldError[] = [];
  if (w.requireValidPropertyType && s.type && !openapiV3Types.includes(s.type)) errs.push(notSupported(path.child('type'), s.type, openapiV3Types));
  if (s.default !== undefined && !w.allowDefaults) {
    errs.push(forbidden(path.child('default'), `must not be set${w.disallowDefaultsReason ? ` ${w.disallowDefaultsReason}` : ''}`));
  }
  if (s.id) errs.push(forbidden(path.child('id'), 'id is not supported'));
  if (s.additionalItems !== undefined) errs.push(forbidden(path.child('additionalItems'), 'additionalItems is not supported'));
  if (entriesOf(s.patternProperties).length > 0) errs.push(forbidden(path.child('patternProperties'), 'patternProperties is not supported'));
  if (entriesOf(s.definitions).length > 0) errs.push(forbidden(path.child('definitions'), 'definitions is not supported'));
  if (s.dependencies !== undefined) errs.push(forbidden(path.child('dependencies'), 'dependencies is not supported'));
  if (s.$ref !== undefined) errs.push(forbidden(path.child('$ref'), '$ref is not supported'));
  if (s.type === 'null') errs.push(forbidden(path.child('type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length > 0) errs.push(forbidden(path.child('items'), 'items must be a schema object and not an array'));
  if (w.insideResourceMeta && s['x-kubernetes-embedded-resource']) {
    errs.push(forbidden(path.child('x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
  return errs;
}

const itemSchemaOf = (s: JSONSchemaProps) => (isObject(s.items) ? (s.items as JSONSchemaProps) : undefined);

function extensionChecks(s: JSONSchemaProps, path: Path, w: Walk): FieldError[] {
  const errs: FieldError[] = [];
  const listType = s['x-kubernetes-list-type'];
  const mapType = s['x-kubernetes-map-type'];
  const keys = s['x-kubernetes-list-map-keys'] ?? [];
  const items = itemSchemaOf(s);
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(invalid(path.child('x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }
  if (mapType !== undefined && s.type !== 'object') {
    if (!s.type) errs.push(required(path.child('type'), 'must be object if x-kubernetes-map-type is specified'));
    else errs.push(invalid(path.child('type'), s.type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(notSupported(path.child('x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }
  if (listType !== undefined && s.type !== 'array') {
    if (!s.type) errs.push(required(path.child('type'), 'must be array if x-kubernetes-list-type is specified'));
    else errs.push(invalid(path.child('type'), s.type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (w.requireAtomicSetType && listType === 'set' && items !== undefined) {
    const itemList = items['x-kubernetes-list-type'];
    if (items.type === 'array' && itemList !== undefined && itemList !== 'atomic') {
      errs.push(invalid(path.child('items').child('x-kubernetes-list-type'), itemList, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    } else if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      // Upstream reports the items' list type here (none, for an object), printed as Go's nil pointer.
      errs.push(invalid(path.child('items').child('x-kubernetes-map-type'), goBadValue(itemList ?? null), 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    errs.push(notSupported(path.child('x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  }
  if (keys.length > 0) {
    if (listType === undefined) errs.push(required(path.child('x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(invalid(path.child('x-kubernetes-list-type'), listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') {
    if (keys.length === 0) errs.push(required(path.child('x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    if (s.items === undefined) errs.push(required(path.child('items'), 'must have a schema if x-kubernetes-list-type is map'));
    if (Array.isArray(s.items)) errs.push(invalid(path.child('items'), goBadValue(s.items), 'must only have a single schema if x-kubernetes-list-type is map'));
    if (items !== undefined && items.type !== 'object') {
      errs.push(invalid(path.child('items').child('type'), items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    }
    if (items !== undefined && items.type === 'object') {
      const seen = new Set<string>();
      for (const k of keys) {
        const prop = isObject(items.properties) && Object.hasOwn(items.properties, k) ? items.properties[k] : undefined;
        if (prop === undefined) {
          errs.push(invalid(path.child('x-kubernetes-list-map-keys'), goBadValue(keys), 'entries must all be names of item properties'));
        } else if (prop.type === 'array' || prop.type === 'object') {
          errs.push(invalid(path.child('items').child('properties').key(k).child('type'), items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
        }
        if (seen.has(k)) errs.push(invalid(path.child('x-kubernetes-list-map-keys'), goBadValue(keys), 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  if (w.requireMapListKeysMapSetValidation) errs.push(...mapListKeysMapSet(s, path));
  return errs;
}

/** Items of set and map lists are not nullable; a map list's keys are required or defaulted, and not nullable. */
function mapListKeysMapSet(s: JSONSchemaProps, path: Path): FieldError[] {
  const items = itemSchemaOf(s);
  const listType = s['x-kubernetes-list-type'];
  if (items === undefined || (listType !== 'set' && listType !== 'map')) return [];
  const errs: FieldError[] = [];
  if (items.nullable) errs.push(forbidden(path.child('items').child('nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType === 'map') {
    const req = new Set(items.required ?? []);
    for (const k of s['x-kubernetes-list-map-keys'] ?? []) {
      const prop = isObject(items.properties) && Object.hasOwn(items.properties, k) ? items.properties[k] : undefined;
      if (prop === undefined) continue;
      const at = path.child('items').child('properties').key(k);
      if (!req.has(k) && prop.default === undefined) {
        errs.push(required(at.child('default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
      }
      if (prop.nullable) errs.push(forbidden(at.child('nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
    }
  }
  return errs;
}

// ---- leniency for schemas already stored ----

/** Whether some place of the schema satisfies `pred` (upstream's SchemaHas). */
function schemaHas(s: JSONSchemaProps | undefined, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (!isSchema(s)) return false;
  if (pred(s)) return true;
  const subs: (JSONSchemaProps | undefined)[] = [
    ...(Array.isArray(s.items) ? s.items : [s.items]), ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []), s.not,
    ...entriesOf(s.properties).map(([, v]) => v), isObject(s.additionalProperties) ? s.additionalProperties : undefined,
    ...entriesOf(s.patternProperties).map(([, v]) => v), isObject(s.additionalItems) ? s.additionalItems : undefined,
    ...entriesOf(s.definitions).map(([, v]) => v),
    ...entriesOf(s.dependencies).map(([, v]) => (isObject(v) ? (v as JSONSchemaProps) : undefined)),
  ];
  return subs.some((x) => schemaHas(x, pred));
}

function isNonStructural(s: JSONSchemaProps): boolean {
  try {
    return validateStructural(Path.root(''), newStructural(s)).length > 0;
  } catch {
    return true;
  }
}

function hasUnprunedDefaults(s: JSONSchemaProps): boolean {
  if (!schemaHas(s, (x) => x.default !== undefined)) return false;
  try {
    const ss = newStructural(s);
    if (validateStructural(Path.root(''), ss).length > 0) return false;
    const pruned = cloneStructural(ss);
    pruneDefaults(pruned);
    return !sameDefaults(ss, pruned);
  } catch {
    return false;
  }
}

function sameDefaults(a: Structural, b: Structural): boolean {
  if (!jsonEqual(a.default, b.default)) return false;
  if ((a.items === undefined) !== (b.items === undefined) || (a.items && b.items && !sameDefaults(a.items, b.items))) return false;
  const ap = a.additionalProperties?.structural;
  const bp = b.additionalProperties?.structural;
  if (ap && bp && !sameDefaults(ap, bp)) return false;
  for (const [k, p] of a.properties ?? []) {
    const q = b.properties?.get(k);
    if (q === undefined || !sameDefaults(p, q)) return false;
  }
  return true;
}

function hasNonAtomicSetType(s: JSONSchemaProps): boolean {
  return schemaHas(s, (x) => {
    const items = itemSchemaOf(x);
    if (x['x-kubernetes-list-type'] !== 'set' || items === undefined) return false;
    if (items.type === 'array') return items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic';
    if (items.type === 'object') return items['x-kubernetes-map-type'] !== 'atomic';
    return false;
  });
}

/**
 * The rules an update keeps relaxed because the stored CRD (its versions' schemas `oldSchemas`)
 * already broke them, as upstream keeps accepting persisted data.
 */
export function schemaValidationOptionsFor(oldSchemas: readonly (JSONSchemaProps | undefined)[]): Omit<SchemaValidationOptions, 'statusSubresource' | 'rules' | 'allowDefaults'> {
  const any = (pred: (s: JSONSchemaProps) => boolean) => oldSchemas.some((s) => s !== undefined && pred(s));
  return {
    requireStructuralSchema: !any(isNonStructural),
    requirePrunedDefaults: !any(hasUnprunedDefaults),
    requireAtomicSetType: !any(hasNonAtomicSetType),
    requireMapListKeysMapSetValidation: !any((s) => schemaHas(s, (x) => mapListKeysMapSet(x, Path.root('')).length > 0)),
    requireValidPropertyType: !any((s) => schemaHas(s, (x) => !!x.type && !openapiV3Types.includes(x.type))),
  };
}
