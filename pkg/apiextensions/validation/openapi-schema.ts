// What upstream's ValidateCustomResourceDefinitionOpenAPISchema checks of every node of an
// openAPIV3Schema: the OpenAPI v3 features Kubernetes does not support, defaults where pruning
// could not tell them apart, and the x-kubernetes-* extensions' combinations. Compiling the CEL of
// x-kubernetes-validations is left to the CEL library; their shape is checked here.
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/json-schema-props.js';
import { forbidden, invalid, notSupported, required, type FieldError, type Path } from '../../runtime/field-errors.js';

const openAPIV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const validationReasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const metaFields = new Set(['metadata', 'kind', 'apiVersion']);

/** What a node's place decides about it. */
interface Context {
  allowDefaults: boolean;
  /** Why defaults are forbidden here, appended to "must not be set". */
  disallowDefaultsReason?: string;
  insideResourceMeta: boolean;
  requireValidPropertyType: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
}

export interface OpenAPISchemaOptions {
  requireValidPropertyType: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
}

/** The errors of the schema rooted at `s`, at `path` (…openAPIV3Schema). */
export function validateOpenAPISchema(s: JSONSchemaProps, path: Path, opts: OpenAPISchemaOptions): FieldError[] {
  return validateNode(s, path, { allowDefaults: true, insideResourceMeta: false, ...opts }, true);
}

const hasNewline = (s: string) => /[\n\r]/.test(s);

function validateNode(s: JSONSchemaProps | undefined, path: Path, ctx: Context, isRoot: boolean): FieldError[] {
  if (!s) return [];
  const errs = standardChecks(s, path, ctx);
  if (s.uniqueItems) errs.push(forbidden(path.child('uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  if (s.additionalProperties !== undefined) {
    if (Object.keys(s.properties ?? {}).length > 0 && (s.additionalProperties === false || typeof s.additionalProperties === 'object')) {
      errs.push(forbidden(path.child('additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    const sub = ctx.insideResourceMeta ? { ...ctx, allowDefaults: false, disallowDefaultsReason: 'inside additionalProperties applying to object metadata' } : ctx;
    if (typeof s.additionalProperties === 'object') errs.push(...validateNode(s.additionalProperties, path.child('additionalProperties'), sub, false));
  }
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    let sub = ctx;
    if ((isRoot || s['x-kubernetes-embedded-resource']) && metaFields.has(k)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = { ...sub, allowDefaults: false, disallowDefaultsReason: `in top-level ${k}` };
    }
    errs.push(...validateNode(p, path.child('properties').key(k), sub, false));
  }
  if (s.not) errs.push(...validateNode(s.not, path.child('not'), ctx, false));
  for (const junctor of ['allOf', 'oneOf', 'anyOf'] as const) (s[junctor] ?? []).forEach((x, i) => errs.push(...validateNode(x, path.child(junctor).index(i), ctx, false)));
  for (const [k, x] of Object.entries(s.definitions ?? {})) errs.push(...validateNode(x, path.child('definitions').key(k), ctx, false));
  if (Array.isArray(s.items)) s.items.forEach((x, i) => errs.push(...validateNode(x, path.child('items').index(i), ctx, false)));
  else errs.push(...validateNode(s.items, path.child('items'), ctx, false));
  for (const [k, x] of Object.entries(s.dependencies ?? {})) if (!Array.isArray(x)) errs.push(...validateNode(x, path.child('dependencies').key(k), ctx, false));
  if (s['x-kubernetes-preserve-unknown-fields'] === false) errs.push(invalid(path.child('x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  errs.push(...extensionChecks(s, path, ctx));
  errs.push(...validationRuleShapes(s, path));
  return errs;
}

/** upstream's specStandardValidatorV3.validate: the OpenAPI features a structural schema cannot use. */
function standardChecks(s: JSONSchemaProps, path: Path, ctx: Context): FieldError[] {
  const errs: FieldError[] = [];
  if (ctx.requireValidPropertyType && s.type && !openAPIV3Types.includes(s.type)) errs.push(notSupported(path.child('type'), s.type, openAPIV3Types));
  if (s.default !== undefined && !ctx.allowDefaults) {
    errs.push(forbidden(path.child('default'), `must not be set${ctx.disallowDefaultsReason ? ` ${ctx.disallowDefaultsReason}` : ''}`));
  }
  if (s.id) errs.push(forbidden(path.child('id'), 'id is not supported'));
  if (s.additionalItems !== undefined) errs.push(forbidden(path.child('additionalItems'), 'additionalItems is not supported'));
  if (Object.keys(s.patternProperties ?? {}).length > 0) errs.push(forbidden(path.child('patternProperties'), 'patternProperties is not supported'));
  if (Object.keys(s.definitions ?? {}).length > 0) errs.push(forbidden(path.child('definitions'), 'definitions is not supported'));
  if (s.dependencies !== undefined) errs.push(forbidden(path.child('dependencies'), 'dependencies is not supported'));
  if (s.$ref !== undefined) errs.push(forbidden(path.child('$ref'), '$ref is not supported'));
  if (s.type === 'null') errs.push(forbidden(path.child('type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length > 0) errs.push(forbidden(path.child('items'), 'items must be a schema object and not an array'));
  if (ctx.insideResourceMeta && s['x-kubernetes-embedded-resource']) errs.push(forbidden(path.child('x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  return errs;
}

/** x-kubernetes-map-type, -list-type and -list-map-keys: where they may stand and what they need. */
function extensionChecks(s: JSONSchemaProps, path: Path, ctx: Context): FieldError[] {
  const errs: FieldError[] = [];
  const mapType = s['x-kubernetes-map-type'];
  const listType = s['x-kubernetes-list-type'];
  const mapKeys = s['x-kubernetes-list-map-keys'] ?? [];
  const items = Array.isArray(s.items) ? undefined : s.items;
  if (mapType !== undefined && s.type !== 'object') {
    errs.push(s.type ? invalid(path.child('type'), s.type, 'must be object if x-kubernetes-map-type is specified')
      : required(path.child('type'), 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') errs.push(notSupported(path.child('x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  if (listType !== undefined && s.type !== 'array') {
    errs.push(s.type ? invalid(path.child('type'), s.type, 'must be array if x-kubernetes-list-type is specified')
      : required(path.child('type'), 'must be array if x-kubernetes-list-type is specified'));
  } else if (ctx.requireAtomicSetType && listType === 'set' && items) {
    if (items.type === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic') {
      errs.push(invalid(path.child('items').child('x-kubernetes-list-type'), items['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      errs.push(invalid(path.child('items').child('x-kubernetes-map-type'), items['x-kubernetes-list-type'] ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (listType !== undefined && !['atomic', 'set', 'map'].includes(listType)) errs.push(notSupported(path.child('x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  if (mapKeys.length > 0) {
    if (listType === undefined) errs.push(required(path.child('x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(invalid(path.child('x-kubernetes-list-type'), listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') {
    if (mapKeys.length === 0) errs.push(required(path.child('x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    if (s.items === undefined) errs.push(required(path.child('items'), 'must have a schema if x-kubernetes-list-type is map'));
    if (Array.isArray(s.items)) errs.push(invalid(path.child('items'), s.items, 'must only have a single schema if x-kubernetes-list-type is map'));
    if (items && items.type !== 'object') errs.push(invalid(path.child('items').child('type'), items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    if (items?.type === 'object') {
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const key = items.properties?.[k];
        if (!key) errs.push(invalid(path.child('x-kubernetes-list-map-keys'), mapKeys, 'entries must all be names of item properties'));
        else if (key.type === 'array' || key.type === 'object') {
          errs.push(invalid(path.child('items').child('properties').key(k).child('type'), items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
        }
        if (seen.has(k)) errs.push(invalid(path.child('x-kubernetes-list-map-keys'), mapKeys, 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  if (ctx.requireMapListKeysMapSetValidation && items && (listType === 'set' || listType === 'map')) {
    if (items.nullable) errs.push(forbidden(path.child('items').child('nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
    if (listType === 'map') {
      const req = new Set(items.required ?? []);
      for (const k of mapKeys) {
        const key = items.properties?.[k];
        if (!key) continue;
        if (!req.has(k) && key.default === undefined) {
          errs.push(required(path.child('items').child('properties').key(k).child('default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
        }
        if (key.nullable) errs.push(forbidden(path.child('items').child('properties').key(k).child('nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
      }
    }
  }
  return errs;
}

/** The shape of each x-kubernetes-validations rule (compiling its CEL is the CEL library's). */
function validationRuleShapes(s: JSONSchemaProps, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  (s['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const at = path.child('x-kubernetes-validations').index(i);
    const ruleText = (rule.rule ?? '').trim();
    const message = rule.message ?? '';
    if (ruleText === '') errs.push(required(at.child('rule'), 'rule is not specified'));
    else if (message.length > 0 && message.trim() === '') errs.push(invalid(at.child('message'), message, 'must be non-empty if specified'));
    else if (hasNewline(message.trim())) errs.push(invalid(at.child('message'), message, 'must not contain line breaks'));
    else if (hasNewline(ruleText) && message.trim() === '') errs.push(required(at.child('message'), 'message must be specified if rule contains line breaks'));
    if ((rule.messageExpression ?? '').length > 0 && rule.messageExpression!.trim() === '') {
      errs.push(required(at.child('messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (rule.reason !== undefined && !validationReasons.includes(rule.reason)) errs.push(notSupported(at.child('reason'), rule.reason, validationReasons));
    const fieldPath = rule.fieldPath ?? '';
    if (fieldPath.length > 0 && fieldPath.trim() === '') errs.push(invalid(at.child('fieldPath'), fieldPath, 'must be non-empty if specified'));
    if (hasNewline(fieldPath)) errs.push(invalid(at.child('fieldPath'), fieldPath, 'must not contain line breaks'));
  });
  return errs;
}
