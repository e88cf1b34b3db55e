// Whether an openAPIV3Schema is structural, as upstream's ValidateStructural decides: every node
// that says what a value is (type, properties, items, additionalProperties, x-kubernetes-*) does
// so outside allOf, anyOf, oneOf and not, which may only add value validations about places the
// structural part already specifies; root metadata may restrict only name and generateName.
import { isDeepStrictEqual } from 'node:util';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/json-schema-props.js';
import { errorMessage, forbidden, invalid, required, type FieldError, type Path } from '../../runtime/field-errors.js';

type Level = 'root' | 'item' | 'field';

/** The one junctor shape int-or-string may use: anyOf of an integer and a string. */
const intOrStringAnyOf: JSONSchemaProps[] = [{ type: 'integer' }, { type: 'string' }];

const isIntOrStringAnyOf = (s: JSONSchemaProps | undefined) => !!s?.anyOf && isDeepStrictEqual(s.anyOf, intOrStringAnyOf);

/** The schema of additionalProperties when it is one (not a boolean). */
function additionalSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

function itemSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return Array.isArray(s.items) ? undefined : s.items;
}

/** The structural invariants and completeness of `s` (the root of a version's schema), sorted as upstream sorts them. */
export function validateStructural(s: JSONSchemaProps, path: Path): FieldError[] {
  const errs = [...invariants(s, 'root', path), ...completeness(s, s, path, path)];
  return errs.sort((a, b) => (errorMessage(a) < errorMessage(b) ? -1 : errorMessage(a) > errorMessage(b) ? 1 : 0));
}

function invariants(s: JSONSchemaProps, lvl: Level, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const items = itemSchema(s);
  if (s.type === 'array' && s.items === undefined) errs.push(required(path.child('items'), 'must be specified'));
  if (items) errs.push(...invariants(items, 'item', path.child('items')));
  for (const [k, p] of Object.entries(s.properties ?? {})) errs.push(...invariants(p, 'field', path.child('properties').key(k)));
  if (s.additionalProperties !== undefined) {
    if (lvl === 'root') errs.push(forbidden(path.child('additionalProperties'), 'must not be used at the root'));
    const a = additionalSchema(s);
    if (a) errs.push(...invariants(a, 'field', path.child('additionalProperties')));
  }
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (intOrString && preserve) errs.push(invalid(path.child('x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) errs.push(invalid(path.child('x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  const skipAnyOf = isIntOrStringAnyOf(s);
  const skipFirstAllOfAnyOf = (s.allOf?.length ?? 0) >= 1 && isIntOrStringAnyOf(s.allOf![0]);
  errs.push(...valueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, path));
  const checkMetadata = lvl === 'root' || embedded;
  if (embedded && s.type !== 'object') {
    errs.push(s.type ? invalid(path.child('type'), s.type, 'must be object if x-kubernetes-embedded-resource is true')
      : required(path.child('type'), 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (!s.type && !intOrString && !preserve) {
    const where = { root: 'at the root', item: 'for specified array items', field: 'for specified object fields' }[lvl];
    errs.push(required(path.child('type'), `must not be empty ${where}`));
  }
  if (embedded && s.additionalProperties !== undefined) errs.push(forbidden(path.child('additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  if (lvl === 'root' && s.type && s.type !== 'object') errs.push(invalid(path.child('type'), s.type, 'must be object at the root'));
  if (checkMetadata) {
    for (const k of ['kind', 'apiVersion']) {
      const p = s.properties?.[k];
      if (p && p.type !== 'string') errs.push(invalid(path.child('properties').key(k).child('type'), p.type ?? '', 'must be string'));
    }
  }
  const metadata = s.properties?.metadata;
  if (metadata) errs.push(...metadataInvariants(metadata, checkMetadata, lvl, path.child('properties').key('metadata')));
  if (embedded && !preserve && Object.keys(s.properties ?? {}).length === 0) {
    errs.push(required(path.child('properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

/** Root metadata may say it is an object and restrict name and generateName; nothing else. */
function metadataInvariants(s: JSONSchemaProps, checkMetadata: boolean, lvl: Level, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && s.type !== 'object') errs.push(invalid(path.child('type'), s.type ?? '', 'must be object'));
  if (lvl !== 'root') return errs;
  const keys = Object.keys(s.properties ?? {});
  const onlyNames = keys.length > 0 && keys.every((k) => k === 'name' || k === 'generateName');
  // type and default are judged elsewhere; any other keyword set restricts metadata beyond its names.
  const rest = Object.entries(s).filter(([k, x]) => k !== 'type' && k !== 'default' && !isZero(x)
    && !(k === 'properties' && onlyNames));
  if (rest.length > 0) errs.push(forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  return errs;
}

/** Go's zero value of a keyword: unset as far as upstream's structs can tell. */
function isZero(v: unknown): boolean {
  if (v === false || v === '' || v === 0 || v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && v !== null && Object.keys(v).length === 0;
}

/** The junctors of a node (value validations only), and its pattern. */
function valueValidation(s: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) (s.anyOf ?? []).forEach((v, i) => errs.push(...nested(v, false, path.child('anyOf').index(i))));
  (s.allOf ?? []).forEach((v, i) => errs.push(...nested(v, skipFirstAllOfAnyOf && i === 0, path.child('allOf').index(i))));
  (s.oneOf ?? []).forEach((v, i) => errs.push(...nested(v, false, path.child('oneOf').index(i))));
  if (s.not) errs.push(...nested(s.not, false, path.child('not')));
  if (s.pattern) {
    try {
      new RegExp(s.pattern, 'u');
    } catch (e) {
      errs.push(invalid(path.child('pattern'), s.pattern, `must be a valid regular expression, but isn't: ${(e as Error).message}`));
    }
  }
  return errs;
}

/** A node inside a junctor: value validations only. */
function nested(v: JSONSchemaProps, skipAnyOf: boolean, path: Path): FieldError[] {
  const errs = valueValidation(v, skipAnyOf, false, path);
  const items = itemSchema(v);
  if (items) errs.push(...nested(items, false, path.child('items')));
  for (const [k, p] of Object.entries(v.properties ?? {})) errs.push(...nested(p, false, path.child('properties').key(k)));
  if (v.type) errs.push(forbidden(path.child('type'), 'must be empty to be structural'));
  if (v.additionalProperties !== undefined) errs.push(forbidden(path.child('additionalProperties'), 'must be undefined to be structural'));
  if (v.default !== undefined) errs.push(forbidden(path.child('default'), 'must be undefined to be structural'));
  if (v.title) errs.push(forbidden(path.child('title'), 'must be empty to be structural'));
  if (v.description) errs.push(forbidden(path.child('description'), 'must be empty to be structural'));
  if (v.nullable) errs.push(forbidden(path.child('nullable'), 'must be false to be structural'));
  if (v['x-kubernetes-preserve-unknown-fields']) errs.push(forbidden(path.child('x-kubernetes-preserve-unknown-fields'), 'must be false to be structural'));
  if (v['x-kubernetes-embedded-resource']) errs.push(forbidden(path.child('x-kubernetes-embedded-resource'), 'must be false to be structural'));
  if (v['x-kubernetes-int-or-string']) errs.push(forbidden(path.child('x-kubernetes-int-or-string'), 'must be false to be structural'));
  if ((v['x-kubernetes-list-map-keys'] ?? []).length > 0) errs.push(forbidden(path.child('x-kubernetes-list-map-keys'), 'must be empty to be structural'));
  if (v['x-kubernetes-list-type'] !== undefined) errs.push(forbidden(path.child('x-kubernetes-list-type'), 'must be undefined to be structural'));
  if (v['x-kubernetes-map-type'] !== undefined) errs.push(forbidden(path.child('x-kubernetes-map-type'), 'must be undefined to be structural'));
  if ((v['x-kubernetes-validations'] ?? []).length > 0) errs.push(forbidden(path.child('x-kubernetes-validations'), 'must be empty to be structural'));
  if (v.properties?.metadata) errs.push(forbidden(path.child('properties').key('metadata'), 'must not be specified in a nested context'));
  return errs;
}

/** Every place a junctor's value validation speaks of must be specified by the structural part beside it. */
function completeness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: Path, vPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const junctors: [JSONSchemaProps, Path][] = [
    ...(v.not ? [[v.not, vPath.child('not')] as [JSONSchemaProps, Path]] : []),
    ...(v.allOf ?? []).map((x, i): [JSONSchemaProps, Path] => [x, vPath.child('allOf').index(i)]),
    ...(v.anyOf ?? []).map((x, i): [JSONSchemaProps, Path] => [x, vPath.child('anyOf').index(i)]),
    ...(v.oneOf ?? []).map((x, i): [JSONSchemaProps, Path] => [x, vPath.child('oneOf').index(i)]),
  ];
  for (const [j, jPath] of junctors) errs.push(...nestedCompleteness(j, s, sPath, jPath));
  return errs;
}

function nestedCompleteness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: Path, vPath: Path): FieldError[] {
  if (!s) return [required(sPath, `because it is defined in ${String(vPath)}`)];
  const errs = completeness(v, s, sPath, vPath);
  const vItems = itemSchema(v);
  if (vItems) errs.push(...nestedCompleteness(vItems, itemSchema(s), sPath.child('items'), vPath.child('items')));
  for (const [k, p] of Object.entries(v.properties ?? {})) {
    const sp = s.properties?.[k];
    if (!sp) errs.push(required(sPath.child('properties').key(k), `because it is defined in ${String(vPath.child('properties').key(k))}`));
    else errs.push(...nestedCompleteness(p, sp, sPath.child('properties').key(k), vPath.child('properties').key(k)));
  }
  return errs;
}
