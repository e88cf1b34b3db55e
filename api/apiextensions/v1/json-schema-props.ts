// The openAPIV3Schema of a CustomResourceDefinition (upstream's JSONSchemaProps), read as upstream's
// Go type reads it: each keyword's JSON type checked (a wrong one is a decoding error, 400), unknown
// keywords dropped and reported for fieldValidation, nulls of optional keywords unset. The schema is
// recursive, which our declared schemas are not, so this walk does by hand for it what the decoder
// does for every declared field.
import type { FreeFormDecoding } from '../../registration.js';

/** A validation rule of x-kubernetes-validations. */
export interface ValidationRule {
  rule?: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** Upstream's JSONSchemaProps as it travels in JSON (items may also be a list, additionalProperties a boolean). */
export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: { description?: string; url?: string };
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'any' | 'strings' | 'anys' | 'schema' | 'schemas' | 'schemaMap'
  | 'schemaOrArray' | 'schemaOrBool' | 'dependencies' | 'externalDocs' | 'rules';

/** Every keyword upstream's JSONSchemaProps has, with the JSON it takes. */
const keywords: Record<string, Kind> = {
  id: 'string', $schema: 'string', $ref: 'string', description: 'string', type: 'string', format: 'string', title: 'string',
  default: 'any', maximum: 'number', exclusiveMaximum: 'boolean', minimum: 'number', exclusiveMinimum: 'boolean',
  maxLength: 'integer', minLength: 'integer', pattern: 'string', maxItems: 'integer', minItems: 'integer', uniqueItems: 'boolean',
  multipleOf: 'number', enum: 'anys', maxProperties: 'integer', minProperties: 'integer', required: 'strings',
  items: 'schemaOrArray', allOf: 'schemas', oneOf: 'schemas', anyOf: 'schemas', not: 'schema', properties: 'schemaMap',
  additionalProperties: 'schemaOrBool', patternProperties: 'schemaMap', dependencies: 'dependencies', additionalItems: 'schemaOrBool',
  definitions: 'schemaMap', externalDocs: 'externalDocs', example: 'any', nullable: 'boolean',
  'x-kubernetes-preserve-unknown-fields': 'boolean', 'x-kubernetes-embedded-resource': 'boolean', 'x-kubernetes-int-or-string': 'boolean',
  'x-kubernetes-list-map-keys': 'strings', 'x-kubernetes-list-type': 'string', 'x-kubernetes-map-type': 'string',
  'x-kubernetes-validations': 'rules',
};

const ruleKeys: Record<string, 'string' | 'boolean'> = {
  rule: 'string', message: 'string', messageExpression: 'string', reason: 'string', fieldPath: 'string', optionalOldSelf: 'boolean',
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Reads, in place, every openAPIV3Schema of a CustomResourceDefinition (spec.versions[*].schema). */
export function decodeDefinitionSchemas(crd: Record<string, unknown>): FreeFormDecoding {
  const out: FreeFormDecoding = { unknownFields: [], decodeErrors: [] };
  const spec = crd.spec;
  if (!isObject(spec) || !Array.isArray(spec.versions)) return out;
  spec.versions.forEach((v: unknown, i) => {
    if (!isObject(v) || !isObject(v.schema)) return;
    const schema = v.schema.openAPIV3Schema;
    if (schema === undefined) return;
    const path = `spec.versions[${i}].schema.openAPIV3Schema`;
    if (!isObject(schema)) {
      out.decodeErrors.push(`${path}: expected object, got ${jsonType(schema)}`);
      return;
    }
    readSchema(schema, path, out);
  });
  return out;
}

/** Reads one JSONSchemaProps in place. */
export function readSchema(s: Record<string, unknown>, path: string, out: FreeFormDecoding): void {
  for (const key of Object.keys(s)) {
    const kind = keywords[key];
    const at = `${path}.${key}`;
    if (kind === undefined) {
      out.unknownFields.push(at);
      delete s[key];
      continue;
    }
    const v = s[key];
    // A null keyword is unset, as Go decodes a null into a pointer or a slice; default and example keep a JSON null.
    if (v === null && kind !== 'any') {
      delete s[key];
      continue;
    }
    readKeyword(kind, v, at, out);
  }
}

function expect(ok: boolean, what: string, v: unknown, at: string, out: FreeFormDecoding): boolean {
  if (!ok) out.decodeErrors.push(`${at}: expected ${what}, got ${jsonType(v)}`);
  return ok;
}

function readKeyword(kind: Kind, v: unknown, at: string, out: FreeFormDecoding): void {
  switch (kind) {
    case 'any':
      return;
    case 'string':
      expect(typeof v === 'string', 'string', v, at, out);
      return;
    case 'boolean':
      expect(typeof v === 'boolean', 'boolean', v, at, out);
      return;
    case 'number':
      expect(typeof v === 'number', 'number', v, at, out);
      return;
    case 'integer':
      expect(typeof v === 'number' && Number.isInteger(v), 'integer', v, at, out);
      return;
    case 'strings':
      if (expect(Array.isArray(v), 'array', v, at, out)) (v as unknown[]).forEach((x, i) => expect(typeof x === 'string', 'string', x, `${at}[${i}]`, out));
      return;
    case 'anys':
      expect(Array.isArray(v), 'array', v, at, out);
      return;
    case 'schema':
      if (expect(isObject(v), 'object', v, at, out)) readSchema(v as Record<string, unknown>, at, out);
      return;
    case 'schemas':
      if (expect(Array.isArray(v), 'array', v, at, out)) (v as unknown[]).forEach((x, i) => readKeyword('schema', x, `${at}[${i}]`, out));
      return;
    case 'schemaMap':
      if (expect(isObject(v), 'object', v, at, out)) {
        for (const [k, x] of Object.entries(v as Record<string, unknown>)) readKeyword('schema', x, `${at}[${k}]`, out);
      }
      return;
    case 'schemaOrArray':
      if (Array.isArray(v)) readKeyword('schemas', v, at, out);
      else readKeyword('schema', v, at, out);
      return;
    case 'schemaOrBool':
      if (typeof v !== 'boolean') readKeyword('schema', v, at, out);
      return;
    case 'dependencies':
      if (expect(isObject(v), 'object', v, at, out)) {
        for (const [k, x] of Object.entries(v as Record<string, unknown>)) readKeyword(Array.isArray(x) ? 'strings' : 'schema', x, `${at}[${k}]`, out);
      }
      return;
    case 'externalDocs':
      if (expect(isObject(v), 'object', v, at, out)) readFlat(v as Record<string, unknown>, { description: 'string', url: 'string' }, at, out);
      return;
    case 'rules':
      if (expect(Array.isArray(v), 'array', v, at, out)) {
        (v as unknown[]).forEach((x, i) => {
          if (expect(isObject(x), 'object', x, `${at}[${i}]`, out)) readFlat(x as Record<string, unknown>, ruleKeys, `${at}[${i}]`, out);
        });
      }
  }
}

/** A struct of scalar fields: unknown ones dropped, nulls unset, types checked. */
function readFlat(o: Record<string, unknown>, fields: Record<string, 'string' | 'boolean'>, at: string, out: FreeFormDecoding): void {
  for (const key of Object.keys(o)) {
    const kind = fields[key];
    if (kind === undefined) {
      out.unknownFields.push(`${at}.${key}`);
      delete o[key];
    } else if (o[key] === null) {
      delete o[key];
    } else {
      readKeyword(kind, o[key], `${at}.${key}`, out);
    }
  }
}
