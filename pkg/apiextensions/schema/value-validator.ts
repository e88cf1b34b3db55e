// OpenAPI v3 validation of a custom resource, as kube-openapi's validate package does it for
// apiextensions-apiserver: the same checks in the same order (type, allOf/anyOf/oneOf/not,
// string, format, number, array, enum, object), the same error texts, and the same choice of
// which failed anyOf/oneOf branch to report (the one with most successful checks, counted as
// upstream counts them). On update, validation ratchets as in Kubernetes 1.30: an error at a
// place whose value did not change is dropped, so objects stored under an older schema can
// still be updated elsewhere.
import { compileGoRegexp, GoRegexpError } from '../../util/go-regexp.js';
import type { CorrelatedObject } from './correlated-object.js';
import { isKnownFormat, validatesFormat } from './formats.js';
import { isGoInt } from './go-value.js';
import { jsonEqual } from './json-schema-props.js';
import {
  duplicateItems, enumFail, exceedsMaximum, exceedsMinimum, failedPattern, invalidType, multipleOfMustBePositive,
  mustNotValidate, mustValidateAll, mustValidateAtLeastOne, mustValidateOnlyOne, notMultipleOf, propertyNotAllowed,
  requiredFail, tooFewItems, tooFewProperties, tooLong, tooManyItems, tooManyProperties, tooShort, type OpenAPIError,
} from './openapi-errors.js';
import type { ValueSchema } from './value-schema.js';

/** What a validation found: errors, errors dropped by ratcheting, and how many checks passed. */
export class Result {
  readonly errors: OpenAPIError[] = [];
  readonly warnings: OpenAPIError[] = [];
  matchCount = 0;

  get valid(): boolean {
    return this.errors.length === 0;
  }

  merge(...others: (Result | undefined)[]): this {
    for (const o of others) {
      if (o === undefined) continue;
      this.addErrors(...o.errors);
      this.addWarnings(...o.warnings);
      this.matchCount += o.matchCount;
    }
    return this;
  }

  /** Adds errors, each message once. */
  addErrors(...errs: OpenAPIError[]): void {
    for (const e of errs) if (!this.errors.some((x) => x.message === e.message)) this.errors.push(e);
  }

  addWarnings(...errs: OpenAPIError[]): void {
    for (const e of errs) if (!this.warnings.some((x) => x.message === e.message)) this.warnings.push(e);
  }

  inc(): void {
    this.matchCount++;
  }
}

const single = (e: OpenAPIError | undefined): Result => {
  const r = new Result();
  if (e !== undefined) r.errors.push(e);
  return r;
};

type Kind = 'null' | 'boolean' | 'string' | 'integer' | 'number' | 'array' | 'object';

/** The JSON type Go infers for a decoded value (an int64 is an integer, a float64 a number). */
function kindOf(v: unknown): Kind {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return isGoInt(v) ? 'integer' : 'number';
  return Array.isArray(v) ? 'array' : 'object';
}

/** swag.IsFloat64AJSONInteger: integral within ±2^53, or (for a positive number) within a relative 1e-9 of one. */
function isJSONInteger(f: number): boolean {
  if (!Number.isFinite(f) || f < -(2 ** 53) || f > 2 ** 53) return false;
  if (Number.isInteger(f)) return true;
  if (f < 0) return false;
  const g = Math.trunc(f);
  if (g === 0) return false;
  return Math.abs(f - g) / (f + g) < 1e-9;
}

/** Go's int64(f): truncation toward zero. */
const toInt64 = (f: number) => Math.trunc(f);

const childPath = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** Validates `data` against `schema` (the object's root, `path` ''), correlated with the old object on update. */
export function validateValue(schema: ValueSchema, data: unknown, correlation?: CorrelatedObject): Result {
  return correlation === undefined ? validate(schema, data, '', undefined) : ratcheted(schema, '', correlation);
}

function ratcheted(schema: ValueSchema, path: string, corr: CorrelatedObject): Result {
  const res = validate(schema, corr.value, path, corr);
  if (res.valid || !corr.unchanged()) return res;
  const kept = new Result();
  kept.addWarnings(...res.errors, ...res.warnings);
  kept.matchCount = res.matchCount;
  return kept;
}

/** The validation of a field: ratcheted when it correlates with an old value (apiVersion and kind at the root never do). */
function validateField(schema: ValueSchema, key: string, value: unknown, parentPath: string, path: string, corr: CorrelatedObject | undefined): Result {
  const child = corr !== undefined && !(parentPath === '' && (key === 'kind' || key === 'apiVersion')) ? corr.key(key) : undefined;
  return child !== undefined ? ratcheted(schema, path, child) : validate(schema, value, path, undefined);
}

function validate(s: ValueSchema, data: unknown, path: string, corr: CorrelatedObject | undefined): Result {
  const result = new Result();
  const kind = kindOf(data);
  const typeApplies = s.type.length > 0 || s.format !== '';
  if (kind === 'null') {
    // Upstream runs the type check on null even where it does not otherwise apply.
    result.merge(validateType(s, data, kind, path));
    result.merge(validateEnum(s, data, path));
    return result;
  }
  const run = (r: Result) => {
    result.merge(r);
    result.inc();
  };
  if (typeApplies) run(validateType(s, data, kind, path));
  run(validateSchemaProps(s, data, path));
  if (kind === 'string') {
    run(validateString(s, data as string, path));
    if (isKnownFormat(s.format)) run(single(validatesFormat(s.format, data as string) ? undefined : invalidType(path, s.format, data as string)));
  }
  if (kind === 'integer' || kind === 'number') run(validateNumber(s, data as number, kind === 'integer', path));
  if (kind === 'array') run(validateSlice(s, data as unknown[], path, corr));
  run(validateEnum(s, data, path));
  if (kind === 'object') run(validateObject(s, data as Record<string, unknown>, path, corr));
  result.inc();
  return result;
}

const goFormatOf: Partial<Record<Kind, string>> = { integer: 'int64', number: 'float64' };

function validateType(s: ValueSchema, data: unknown, kind: Kind, path: string): Result {
  const ok = new Result();
  ok.inc();
  const has = (t: string) => s.type.includes(t);
  if (kind === 'null') {
    return s.type.length > 0 && !has('null') && !s.nullable ? single(invalidType(path, s.type.join(','), 'null')) : ok;
  }
  const format = goFormatOf[kind] ?? '';
  const isFloatInt = kind === 'number' && isJSONInteger(data as number) && has('integer');
  const isIntFloat = kind === 'integer' && has('number');
  if (kind !== 'string' && kind !== 'array' && s.format !== '' && !(has(kind) || format === s.format || isFloatInt || isIntFloat)) {
    return single(invalidType(path, s.format, format));
  }
  if (!(has('number') || has('integer')) && s.format !== '' && (kind === 'string' || kind === 'array')) return ok;
  if (!(has(kind) || isFloatInt || isIntFloat)) return single(invalidType(path, s.type.join(','), kind));
  return ok;
}

function validateSchemaProps(s: ValueSchema, data: unknown, path: string): Result {
  const main = new Result();
  if (s.anyOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    let succeeded = false;
    for (const sub of s.anyOf) {
      const r = validate(sub, data, path, undefined);
      if (r.valid) {
        best = undefined;
        succeeded = true;
        firstSuccess ??= r;
        break;
      }
      if (best === undefined || r.matchCount > best.matchCount) best = r;
    }
    if (!succeeded) main.addErrors(mustValidateAtLeastOne(path));
    main.merge(best ?? firstSuccess);
  }
  if (s.oneOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    let validated = 0;
    for (const sub of s.oneOf) {
      const r = validate(sub, data, path, undefined);
      if (r.valid) {
        validated++;
        best = undefined;
        firstSuccess ??= r;
        continue;
      }
      if (validated === 0 && (best === undefined || r.matchCount > best.matchCount)) best = r;
    }
    if (validated !== 1) {
      main.addErrors(mustValidateOnlyOne(path, validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`));
      main.merge(best);
    } else {
      main.merge(firstSuccess);
    }
  }
  if (s.allOf.length > 0) {
    let validated = 0;
    for (const sub of s.allOf) {
      const r = validate(sub, data, path, undefined);
      if (r.valid) validated++;
      main.merge(r);
    }
    if (validated !== s.allOf.length) main.addErrors(mustValidateAll(path, validated === 0 ? '. None validated' : ''));
  }
  if (s.not !== undefined && validate(s.not, data, path, undefined).valid) main.addErrors(mustNotValidate(path));
  main.inc();
  return main;
}

function validateString(s: ValueSchema, data: string, path: string): Result {
  const runes = Array.from(data).length;
  if (s.maxLength !== undefined && runes > s.maxLength) return single(tooLong(path, s.maxLength, data));
  if (s.minLength !== undefined && runes < s.minLength) return single(tooShort(path, s.minLength, data));
  if (s.pattern !== '') {
    let re: RegExp;
    try {
      re = compileGoRegexp(s.pattern);
    } catch (e) {
      if (!(e instanceof GoRegexpError)) throw e;
      return single(failedPattern(path, `${s.pattern}, but pattern is invalid: ${e.message}`, data));
    }
    if (!re.test(data)) return single(failedPattern(path, s.pattern, data));
  }
  return new Result();
}

/**
 * Bounds and factors as upstream checks them: an integer against the bound converted to int64
 * (truncated: `minimum: 0.5` admits 0, `multipleOf: 0.5` is a factor of 0), a float as a float.
 */
function validateNumber(s: ValueSchema, data: number, isInt: boolean, path: string): Result {
  const res = new Result();
  const errs: OpenAPIError[] = [];
  if (s.multipleOf !== undefined) {
    const factor = isInt ? toInt64(s.multipleOf) : s.multipleOf;
    if (factor <= 0) errs.push(multipleOfMustBePositive(path, factor, !isInt));
    else if (isInt ? data % factor !== 0 : !isJSONInteger(factor < 1 ? (1 / factor) * data : data / factor)) {
      errs.push(notMultipleOf(path, factor, data, !isInt));
    }
  }
  if (s.minimum !== undefined) {
    const min = isInt ? toInt64(s.minimum) : s.minimum;
    if (s.exclusiveMinimum ? data <= min : data < min) errs.push(exceedsMinimum(path, min, s.exclusiveMinimum, data, !isInt));
  }
  if (s.maximum !== undefined) {
    const max = isInt ? toInt64(s.maximum) : s.maximum;
    if (s.exclusiveMaximum ? data >= max : data > max) errs.push(exceedsMaximum(path, max, s.exclusiveMaximum, data, !isInt));
  }
  res.addErrors(...errs);
  res.inc();
  return res;
}

function validateSlice(s: ValueSchema, data: unknown[], path: string, corr: CorrelatedObject | undefined): Result {
  const result = new Result();
  if (s.items !== undefined) {
    for (let i = 0; i < data.length; i++) {
      const itemPath = `${path}[${i}]`;
      const child = corr?.index(i);
      result.merge(child !== undefined ? ratcheted(s.items, itemPath, child) : validate(s.items, data[i], itemPath, undefined));
    }
  }
  if (s.minItems !== undefined && data.length < s.minItems) result.addErrors(tooFewItems(path, s.minItems, data.length));
  if (s.maxItems !== undefined && data.length > s.maxItems) result.addErrors(tooManyItems(path, s.maxItems, data.length));
  if (s.uniqueItems && data.some((v, i) => data.slice(0, i).some((u) => jsonEqual(u, v)))) result.addErrors(duplicateItems(path));
  result.inc();
  return result;
}

/**
 * Enum membership as Go's reflect decides it: a number matches an integer member after
 * conversion to int64 (truncated), a float member by value; a null member never matches.
 */
function inEnum(data: unknown, member: unknown): boolean {
  if (member === null || member === undefined || data === null || data === undefined) return false;
  if (typeof member === 'number' && typeof data === 'number') return isGoInt(member) ? toInt64(data) === member : data === member;
  return jsonEqual(data, member);
}

function validateEnum(s: ValueSchema, data: unknown, path: string): Result {
  if (s.enum === undefined || s.enum.length === 0 || s.enum.some((m) => inEnum(data, m))) return new Result();
  return single(enumFail(path, data, s.enum));
}

function validateObject(s: ValueSchema, data: Record<string, unknown>, path: string, corr: CorrelatedObject | undefined): Result {
  const res = new Result();
  const keys = Object.keys(data);
  if (s.minProperties !== undefined && keys.length < s.minProperties) res.addErrors(tooFewProperties(path, s.minProperties, keys.length));
  if (s.maxProperties !== undefined && keys.length > s.maxProperties) res.addErrors(tooManyProperties(path, s.maxProperties, keys.length));
  const declared = (k: string) => s.properties?.has(k) ?? false;
  if (s.additionalProperties !== undefined && !s.additionalProperties.allows) {
    for (const k of keys) if (!declared(k)) res.addErrors(propertyNotAllowed(path, k));
  } else if (s.additionalProperties?.schema !== undefined) {
    for (const k of keys) {
      if (!declared(k)) res.merge(validateField(s.additionalProperties.schema, k, data[k], path, `${path}.${k}`, corr));
    }
  }
  for (const [name, prop] of s.properties ?? []) {
    if (Object.hasOwn(data, name)) res.merge(validateField(prop, name, data[name], path, childPath(path, name), corr));
  }
  for (const k of s.required) if (!Object.hasOwn(data, k)) res.addErrors(requiredFail(`${path}.${k}`));
  return res;
}
