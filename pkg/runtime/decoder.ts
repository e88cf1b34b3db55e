// Turns a parsed request body into an object of a resource: type and version checked, unknown
// fields dropped and reported, wrong JSON types and numbers upstream's decoder refuses rejected
// (400), defaults applied.
import { parseDocument, type Tags } from 'yaml';
import {
  documentProblem, findJSONTooDeep, findYAMLTooDeep, jsonTooDeepMessage, MAX_NESTING_DEPTH, scanJSONNumbers, yamlNumbers,
  type NumberLiteral,
} from './body-scan.js';
import { findDuplicateFieldMessagesJSON, findDuplicateFieldMessagesYAML } from './duplicate-fields.js';
import { newBadRequest, StatusError } from './errors.js';
import { findNumberProblem } from './number-check.js';
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
  /** Number literals JSON.parse or the YAML parser may not have carried faithfully, for the decoder to check. */
  numbers: NumberLiteral[];
}

/**
 * Parses a body as JSON or YAML (duplicates reported, not rejected); malformed input, and input
 * nested deeper than MAX_NESTING_DEPTH, is a 400. The depth is checked by linear scans before
 * anything recursive runs. A `patch` body's errors are worded as upstream words a bad patch.
 */
export function parseBody(body: Buffer, format: BodyFormat, findDuplicates = true, what: 'object' | 'patch' = 'object'): ParsedBody {
  const text = body.toString('utf8');
  const prefix = what === 'patch' ? 'invalid JSON patch' : `error decoding ${format === 'yaml' ? 'YAML' : 'JSON'}`;
  const fail = (why: string) => newBadRequest(`${prefix}: ${why}`);
  if (format === 'yaml') {
    const line = findYAMLTooDeep(text);
    if (line !== null) throw fail(`yaml: line ${line}: exceeded max depth of ${MAX_NESTING_DEPTH}`);
    let doc;
    try {
      // YAML 1.1 as kubectl reads it: `defaultMode: 0644` is octal. Timestamps stay strings, as
      // go-yaml leaves them when decoding into interface{} (a Date would fail every time field).
      doc = parseDocument(text, { version: '1.1', uniqueKeys: false, keepSourceTokens: findDuplicates, customTags: withoutTimestamps });
    } catch (e) {
      throw fail((e as Error).message.split('\n')[0]!);
    }
    if (doc.errors.length > 0) throw fail(doc.errors[0]!.message.split('\n')[0]!);
    // Aliases can nest a value deeper than its text, or inside itself.
    const problem = documentProblem(doc);
    if (problem?.tooDeep) throw fail(`yaml: exceeded max depth of ${MAX_NESTING_DEPTH}`);
    if (problem) throw fail(`yaml: anchor '${problem.anchor}' value contains itself`);
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 }) as unknown;
    } catch (e) {
      throw fail((e as Error).message.split('\n')[0]!);
    }
    return { value, format, duplicates: findDuplicates ? findDuplicateFieldMessagesYAML(text, doc) : [], numbers: yamlNumbers(doc) };
  }
  const tooDeep = findJSONTooDeep(text);
  if (tooDeep) throw fail(jsonTooDeepMessage(tooDeep));
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    throw fail((e as Error).message.split('\n')[0]!);
  }
  return { value, format, duplicates: findDuplicates ? findDuplicateFieldMessagesJSON(text) : [], numbers: scanJSONNumbers(text) };
}

/**
 * The YAML 1.1 tags without timestamps, and with a lone `.` a string as go-yaml reads it (the
 * library's 1.1 float reads it as NaN, and `.` is the key of every managedFields member).
 */
const withoutTimestamps = (tags: Tags): Tags => tags
  .filter((t) => typeof t !== 'object' || t.tag !== 'tag:yaml.org,2002:timestamp')
  .map((t) => (typeof t === 'object' && t.tag === 'tag:yaml.org,2002:float' && t.test?.test('.') ? { ...t, test: new RegExp(`^(?![-+]?\\.$)${t.test.source.slice(1)}`, t.test.flags) } : t));

/**
 * A body that cannot be read as its kind (400): `why` is the decoder's own reason, which a patch
 * reports in its own way (upstream's 422 on the patched object).
 */
export class DecodeError extends StatusError {
  constructor(info: ResourceInfo, readonly why: string) {
    super(400, 'BadRequest', `${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: ${why}`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class ObjectDecoder {
  constructor(private readonly schemas: SchemaValidator) {}

  /**
   * Decodes `data` as an object of `info`'s kind. `numbers` are the literals the body's text
   * scan found (parseBody's `numbers`), at their paths in `data`; without them numbers are
   * judged by their values.
   */
  decode(info: ResourceInfo, data: unknown, numbers: readonly NumberLiteral[] = []): Decoded {
    const cannot = (why: string) => new DecodeError(info, why);
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
    const numberProblem = findNumberProblem(info.schema, data, numbers);
    if (numberProblem) throw cannot(numberProblem);
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
