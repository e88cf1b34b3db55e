// Turns a parsed request body into an object of a resource: type and version checked, unknown
// fields dropped and reported, wrong JSON types rejected (400), defaults applied, and empty values
// upstream omits dropped.
import { parseDocument } from 'yaml';
import { findDuplicateFieldMessagesJSON, findDuplicateFieldMessagesYAML } from './duplicate-fields.js';
import { newBadRequest } from './errors.js';
import { pruneUnknownFields } from './prune.js';
import type { ResourceInfo } from './scheme.js';
import type { SchemaValidator } from './schema-validator.js';
import { dropEmpty } from './wire-shape.js';
import type { ObjectWithMeta } from '../../api/meta/v1/types.js';

export type BodyFormat = 'json' | 'yaml';

export interface Decoded {
  obj: ObjectWithMeta;
  /** Paths of fields the schema does not know, in the order met. */
  unknownFields: string[];
}

export interface ParsedBody {
  value: unknown;
  format: BodyFormat;
  /** Duplicated fields in upstream's wording (`duplicate field "a.b"`, or `line 3: key "b" already set in map` for YAML). */
  duplicates: string[];
}

/** Parses a body as JSON or YAML (duplicates reported, not rejected); malformed input is a 400. */
export function parseBody(body: Buffer, format: BodyFormat, findDuplicates = true): ParsedBody {
  const text = body.toString('utf8');
  try {
    if (format === 'yaml') {
      // YAML 1.1 as kubectl reads it: `defaultMode: 0644` is octal.
      const doc = parseDocument(text, { version: '1.1', uniqueKeys: false, keepSourceTokens: findDuplicates });
      if (doc.errors.length > 0) throw doc.errors[0];
      const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
      return { value, format, duplicates: findDuplicates ? findDuplicateFieldMessagesYAML(text, doc) : [] };
    }
    const value = JSON.parse(text) as unknown;
    return { value, format, duplicates: findDuplicates ? findDuplicateFieldMessagesJSON(text) : [] };
  } catch (e) {
    throw newBadRequest(`error decoding ${format === 'yaml' ? 'YAML' : 'JSON'}: ${(e as Error).message.split('\n')[0]}`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class ObjectDecoder {
  constructor(private readonly schemas: SchemaValidator) {}

  /** Decodes `data` as an object of `info`'s kind. */
  decode(info: ResourceInfo, data: unknown): Decoded {
    const cannot = (why: string) =>
      newBadRequest(`${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: ${why}`);
    if (!isObject(data)) throw cannot(`the body must be a JSON object, got ${Array.isArray(data) ? 'an array' : typeof data}`);
    if (data.apiVersion !== undefined && data.apiVersion !== null && data.apiVersion !== info.apiVersion) {
      throw newBadRequest(`the API version in the data (${String(data.apiVersion)}) does not match the expected API version (${info.apiVersion})`);
    }
    if (data.kind !== undefined && data.kind !== null && data.kind !== info.kind) {
      throw newBadRequest(`the kind in the data (${String(data.kind)}) does not match the expected kind (${info.kind})`);
    }
    if (data.metadata !== undefined && data.metadata !== null && !isObject(data.metadata)) {
      throw cannot('metadata: expected object');
    }
    const unknownFields = pruneUnknownFields(info.schema, data);
    const obj = { ...data, apiVersion: info.apiVersion, kind: info.kind } as ObjectWithMeta;
    obj.metadata ??= {};
    const { decodeErrors } = this.schemas.check(info.schema, obj);
    if (decodeErrors.length > 0) throw cannot(decodeErrors.join('; '));
    info.defaulter?.(obj);
    // After defaulting: a default of 0 or "" on an omitempty field is not shown, as upstream.
    dropEmpty(info.schema, obj);
    return { obj, unknownFields };
  }
}
