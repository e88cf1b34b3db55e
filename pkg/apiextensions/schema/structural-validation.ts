// Whether a schema is structural (upstream's ValidateStructural): what a CRD is refused for when
// it is written. Every place has a type (or int-or-string / preserve-unknown-fields), value
// validations in allOf/anyOf/oneOf/not only restrict what the schema already declares, metadata
// at the root says nothing but name and generateName, embedded resources are objects.
import { errorMessage, forbidden, invalid, required, type FieldError, type Path } from '../../runtime/field-errors.js';
import { goRegexpProblem } from '../../util/go-regexp.js';
import {
  isEmptyValueValidation, isIntOrStringAllOfPattern, isIntOrStringAnyOfPattern,
  type Extensions, type Generic, type NestedValueValidation, type Structural, type ValueValidation,
} from './structural.js';

type Level = 'root' | 'item' | 'field';

/** The errors that make `s` (at `path`, e.g. `spec.versions[0].schema.openAPIV3Schema`) not structural, sorted as upstream sorts them. */
export function validateStructural(path: Path, s: Structural): FieldError[] {
  const errs = [...invariants(s, 'root', path), ...completeness(s.valueValidation, s, path, path)];
  return errs.sort((a, b) => compareStrings(errorMessage(a), errorMessage(b)));
}

function compareStrings(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

function invariants(s: Structural | undefined, lvl: Level, path: Path): FieldError[] {
  if (s === undefined) return [];
  const errs: FieldError[] = [];
  if (s.type === 'array' && s.items === undefined) errs.push(required(path.child('items'), 'must be specified'));
  errs.push(...invariants(s.items, 'item', path.child('items')));
  for (const [k, v] of s.properties ?? []) errs.push(...invariants(v, 'field', path.child('properties').key(k)));
  errs.push(...validateGeneric(s, lvl, path));
  errs.push(...validateExtensions(s, path));
  errs.push(...validateValueValidation(s.valueValidation, isIntOrStringAnyOfPattern(s), isIntOrStringAllOfPattern(s), lvl, path));

  const checkMetadata = lvl === 'root' || s.xEmbeddedResource;
  if (s.xEmbeddedResource && s.type !== 'object') {
    if (s.type === '') errs.push(required(path.child('type'), 'must be object if x-kubernetes-embedded-resource is true'));
    else errs.push(invalid(path.child('type'), s.type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (s.type === '' && !s.xIntOrString && !s.xPreserveUnknownFields) {
    const where = lvl === 'root' ? 'at the root' : lvl === 'item' ? 'for specified array items' : 'for specified object fields';
    errs.push(required(path.child('type'), `must not be empty ${where}`));
  }
  if (s.xEmbeddedResource && s.additionalProperties !== undefined) {
    errs.push(forbidden(path.child('additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (lvl === 'root' && s.type !== '' && s.type !== 'object') errs.push(invalid(path.child('type'), s.type, 'must be object at the root'));
  for (const name of ['kind', 'apiVersion']) {
    const p = s.properties?.get(name);
    if (p !== undefined && checkMetadata && p.type !== 'string') errs.push(invalid(path.child('properties').key(name).child('type'), p.type, 'must be string'));
  }
  const metadata = s.properties?.get('metadata');
  if (metadata !== undefined) errs.push(...metadataInvariants(metadata, checkMetadata, lvl, path.child('properties').key('metadata')));
  if (s.xEmbeddedResource && !s.xPreserveUnknownFields && (s.properties?.size ?? 0) === 0) {
    errs.push(required(path.child('properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

function metadataInvariants(s: Structural, checkMetadata: boolean, lvl: Level, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && s.type !== 'object') errs.push(invalid(path.child('type'), s.type, 'must be object'));
  if (lvl === 'root') {
    // Only name and generateName may be restricted; the rest of metadata is the server's.
    const keys = [...(s.properties?.keys() ?? [])];
    const onlyNames = keys.every((k) => k === 'name' || k === 'generateName');
    const rest: Structural = { ...s, type: '', default: undefined };
    if (onlyNames) delete rest.properties;
    if (!isEmptyStructural(rest)) {
      errs.push(forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
    }
  }
  return errs;
}

function isEmptyStructural(s: Structural): boolean {
  return s.items === undefined && s.properties === undefined && !s.description && !s.type && !s.title && s.default === undefined
    && s.additionalProperties === undefined && !s.nullable && !s.xPreserveUnknownFields && !s.xEmbeddedResource && !s.xIntOrString
    && s.xListMapKeys.length === 0 && s.xListType === undefined && s.xMapType === undefined && s.xValidations.length === 0
    && (s.valueValidation === undefined || isEmptyValueValidation(s.valueValidation));
}

function validateGeneric(g: Generic, lvl: Level, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (g.additionalProperties !== undefined) {
    if (lvl === 'root') errs.push(forbidden(path.child('additionalProperties'), 'must not be used at the root'));
    if (g.additionalProperties.structural !== undefined) {
      errs.push(...invariants(g.additionalProperties.structural, 'field', path.child('additionalProperties')));
    }
  }
  return errs;
}

function validateExtensions(x: Extensions, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (x.xIntOrString && x.xPreserveUnknownFields) {
    errs.push(invalid(path.child('x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (x.xIntOrString && x.xEmbeddedResource) {
    errs.push(invalid(path.child('x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  return errs;
}

function validateValueValidation(v: ValueValidation | undefined, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, lvl: Level, path: Path): FieldError[] {
  if (v === undefined) return [];
  const errs: FieldError[] = [];
  if (!skipAnyOf) v.anyOf.forEach((n, i) => errs.push(...validateNested(n, false, lvl, path.child('anyOf').index(i))));
  v.allOf.forEach((n, i) => errs.push(...validateNested(n, skipFirstAllOfAnyOf && i === 0, lvl, path.child('allOf').index(i))));
  v.oneOf.forEach((n, i) => errs.push(...validateNested(n, false, lvl, path.child('oneOf').index(i))));
  if (v.not !== undefined) errs.push(...validateNested(v.not, false, lvl, path.child('not')));
  if (v.pattern !== '') {
    const problem = goRegexpProblem(v.pattern);
    if (problem !== undefined) errs.push(invalid(path.child('pattern'), v.pattern, `must be a valid regular expression, but isn't: ${problem}`));
  }
  return errs;
}

/** A value validation must not declare what only the structural schema may: types, defaults, descriptions, extensions, metadata. */
function validateNested(v: NestedValueValidation, skipAnyOf: boolean, lvl: Level, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateValueValidation(v.valueValidation, skipAnyOf, false, lvl, path));
  if (v.items !== undefined) errs.push(...validateNested(v.items, false, lvl, path.child('items')));
  for (const [k, p] of v.properties ?? []) errs.push(...validateNested(p, false, 'field', path.child('properties').key(k)));
  const g = v.forbiddenGenerics;
  const x = v.forbiddenExtensions;
  const must = (what: string, cond: boolean, rule: string) => { if (cond) errs.push(forbidden(path.child(what), rule)); };
  must('type', g.type !== '', 'must be empty to be structural');
  must('additionalProperties', g.additionalProperties !== undefined, 'must be undefined to be structural');
  must('default', g.default !== undefined, 'must be undefined to be structural');
  must('title', g.title !== '', 'must be empty to be structural');
  must('description', g.description !== '', 'must be empty to be structural');
  must('nullable', g.nullable, 'must be false to be structural');
  must('x-kubernetes-preserve-unknown-fields', x.xPreserveUnknownFields, 'must be false to be structural');
  must('x-kubernetes-embedded-resource', x.xEmbeddedResource, 'must be false to be structural');
  must('x-kubernetes-int-or-string', x.xIntOrString, 'must be false to be structural');
  must('x-kubernetes-list-map-keys', x.xListMapKeys.length > 0, 'must be empty to be structural');
  must('x-kubernetes-list-type', x.xListType !== undefined, 'must be undefined to be structural');
  must('x-kubernetes-map-type', x.xMapType !== undefined, 'must be undefined to be structural');
  must('x-kubernetes-validations', x.xValidations.length > 0, 'must be empty to be structural');
  if (v.properties?.has('metadata')) errs.push(forbidden(path.child('properties').key('metadata'), 'must not be specified in a nested context'));
  return errs;
}

// Value validations may only speak of places the structural schema declares.

function completeness(v: ValueValidation | undefined, s: Structural | undefined, sPath: Path, vPath: Path): FieldError[] {
  if (v === undefined) return [];
  if (s === undefined) return [required(sPath, `because it is defined in ${vPath}`)];
  const errs: FieldError[] = [];
  if (v.not !== undefined) errs.push(...nestedCompleteness(v.not, s, sPath, vPath.child('not')));
  v.allOf.forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, vPath.child('allOf').index(i))));
  v.anyOf.forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, vPath.child('anyOf').index(i))));
  v.oneOf.forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, vPath.child('oneOf').index(i))));
  return errs;
}

function nestedCompleteness(v: NestedValueValidation, s: Structural | undefined, sPath: Path, vPath: Path): FieldError[] {
  if (s === undefined) return [required(sPath, `because it is defined in ${vPath}`)];
  const errs = completeness(v.valueValidation, s, sPath, vPath);
  if (v.items !== undefined) errs.push(...nestedCompleteness(v.items, s.items, sPath.child('items'), vPath.child('items')));
  for (const [k, p] of v.properties ?? []) {
    const sp = s.properties?.get(k);
    if (sp === undefined) errs.push(required(sPath.child('properties').key(k), `because it is defined in ${vPath.child('properties').key(k)}`));
    else errs.push(...nestedCompleteness(p, sp, sPath.child('properties').key(k), vPath.child('properties').key(k)));
  }
  return errs;
}
