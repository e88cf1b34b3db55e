// /openapi/v2 as protobuf: the Swagger 2.0 JSON document read into gnostic's openapi_v2.Document
// the way gnostic's parser reads it (as upstream's handler does before it marshals), then encoded.
// Values gnostic keeps as text (defaults, examples, enums, vendor extensions) are YAML, rendered
// as gnostic's YAML library renders them, so clients that parse them (kubectl's x-kubernetes-*
// readers) see the JSON document's values.
import type protobuf from 'protobufjs';
import { gnosticV2Messages, gnosticV2Package, gnosticV2Root, type FieldSpec, type ScalarType } from './gnostic-v2-messages.js';
import { gnosticYAML } from './gnostic-yaml.js';
import { isJsonObject, type JsonObject, type JsonValue } from './types.js';

/** Upstream's response type for /openapi/v2 in protobuf (whichever spelling the client asked for). */
export const openAPIV2ProtobufMediaType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
/** The spelling stock kubectl asks for; upstream answers it with the type above. */
export const openAPIV2ProtobufMediaTypeAlias = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

type Message = Record<string, unknown>;

let documentType: protobuf.Type | undefined;

/** The protobuf bytes of a Swagger 2.0 document (a gnostic openapi_v2.Document). */
export function encodeOpenAPIV2Protobuf(doc: JsonObject): Uint8Array {
  documentType ??= gnosticV2Root().lookupType(`${gnosticV2Package}.Document`);
  return documentType.encode(toMessage('Document', doc) ?? {}).finish();
}

/** Messages whose JSON form is not an object with one key per field: oneofs and wrappers of plain values. */
const byHand: Record<string, (v: JsonValue) => Message | undefined> = {
  Any: (v) => ({ yaml: gnosticYAML(v) }),
  AdditionalPropertiesItem: (v) => (typeof v === 'boolean' ? { boolean: v } : one('schema', toMessage('Schema', v))),
  // gnostic reads `items` as one schema; a list of schemas becomes one empty schema.
  ItemsItem: (v) => one('schema', toMessage('Schema', v), true),
  TypeItem: (v) => ({ value: stringList(Array.isArray(v) ? v : [v]) }),
  StringArray: (v) => (Array.isArray(v) ? { value: stringList(v) } : undefined),
  ParametersItem: (v) => (hasRef(v) ? one('json_reference', toMessage('JsonReference', v)) : one('parameter', toMessage('Parameter', v))),
  Parameter: (v) => (field(v, 'in') === 'body' ? one('body_parameter', toMessage('BodyParameter', v)) : one('non_body_parameter', toMessage('NonBodyParameter', v))),
  NonBodyParameter: (v) => {
    const member = nonBodyMembers.get(String(field(v, 'in')));
    return member ? one(member[0], toMessage(member[1], v)) : {};
  },
  ResponseValue: (v) => (hasRef(v) ? one('json_reference', toMessage('JsonReference', v)) : one('response', toMessage('Response', v))),
  SchemaItem: (v) => (field(v, 'type') === 'file' ? one('file_schema', toMessage('FileSchema', v)) : one('schema', toMessage('Schema', v))),
  SecurityDefinitionsItem: (v) => {
    const type = field(v, 'type');
    const member = type === 'oauth2' ? oauth2Members.get(String(field(v, 'flow'))) : securityMembers.get(String(type));
    return member ? one(member[0], toMessage(member[1], v)) : {};
  },
};

// Oneof members by the value that selects them: [field name, message type].
const nonBodyMembers = new Map<string, [string, string]>([
  ['header', ['header_parameter_sub_schema', 'HeaderParameterSubSchema']],
  ['formData', ['form_data_parameter_sub_schema', 'FormDataParameterSubSchema']],
  ['query', ['query_parameter_sub_schema', 'QueryParameterSubSchema']],
  ['path', ['path_parameter_sub_schema', 'PathParameterSubSchema']],
]);
const securityMembers = new Map<string, [string, string]>([
  ['basic', ['basic_authentication_security', 'BasicAuthenticationSecurity']],
  ['apiKey', ['api_key_security', 'ApiKeySecurity']],
]);
const oauth2Members = new Map<string, [string, string]>([
  ['implicit', ['oauth2_implicit_security', 'Oauth2ImplicitSecurity']],
  ['password', ['oauth2_password_security', 'Oauth2PasswordSecurity']],
  ['application', ['oauth2_application_security', 'Oauth2ApplicationSecurity']],
  ['accessCode', ['oauth2_access_code_security', 'Oauth2AccessCodeSecurity']],
]);

const one = (name: string, value: Message | undefined, repeated = false): Message =>
  (value ? { [name]: repeated ? [value] : value } : {});
const field = (v: JsonValue, key: string): JsonValue | undefined => (isJsonObject(v) ? v[key] : undefined);
const hasRef = (v: JsonValue): boolean => typeof field(v, '$ref') === 'string';

/** gnostic reads strings from string and integer scalars; anything else is not a string. */
function scalarString(v: JsonValue): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  return undefined;
}

function stringList(values: JsonValue[]): string[] {
  return values.map(scalarString).filter((s): s is string => s !== undefined);
}

/**
 * A proto3 scalar, or undefined when it is absent on the wire: zero values (``, false, 0) are not
 * encoded, and values of the wrong JSON type are left out rather than failing the whole document.
 */
function scalar(type: ScalarType, v: JsonValue): string | boolean | number | undefined {
  switch (type) {
    case 'string': {
      const s = scalarString(v);
      return s === '' ? undefined : s;
    }
    case 'bool':
      return v === true ? true : undefined;
    case 'int64':
      return typeof v === 'number' && Number.isSafeInteger(v) && v !== 0 ? v : undefined;
    case 'double':
      return typeof v === 'number' && v !== 0 ? v : undefined;
  }
}

const isScalar = (type: string): type is ScalarType => type === 'string' || type === 'bool' || type === 'int64' || type === 'double';

/** One field's value from a JSON value: a scalar, a message, or a list of either. */
function fieldValue(spec: FieldSpec, v: JsonValue): unknown {
  if (spec.repeated) {
    if (!Array.isArray(v)) return undefined;
    const items = isScalar(spec.type) ? stringList(v) : v.map((item) => toMessage(spec.type, item)).filter((m) => m !== undefined);
    return items.length > 0 ? items : undefined;
  }
  return isScalar(spec.type) ? scalar(spec.type, v) : toMessage(spec.type, v);
}

/** Named<Value> entries of an object's keys, in document order. */
function namedEntries(spec: FieldSpec, obj: JsonObject, keys: (k: string) => boolean): Message[] | undefined {
  const valueType = spec.type.slice('Named'.length);
  const out: Message[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (!keys(k)) continue;
    const value = valueType === 'String' ? scalar('string', v) : toMessage(valueType, v);
    out.push({ ...(k !== '' ? { name: k } : {}), ...(value !== undefined ? { value } : {}) });
  }
  return out.length > 0 ? out : undefined;
}

/** The message of type `typeName` read from `v`. */
function toMessage(typeName: string, v: JsonValue): Message | undefined {
  const hand = byHand[typeName];
  if (hand) return hand(v);
  const spec = gnosticV2Messages[typeName];
  if (!spec) return undefined;
  const out: Message = {};
  // gnostic reads a message from any YAML node and finds no keys in a list or a scalar.
  if (!isJsonObject(v)) return out;
  for (const f of spec.fields) {
    const source = f.source;
    if (!source) continue;
    let value: unknown;
    if ('key' in source) {
      const raw = v[source.key];
      value = raw === undefined || (raw === null && isScalar(f.type)) ? undefined : fieldValue(f, raw);
    } else if ('extensions' in source) {
      value = namedEntries(f, v, (k) => k.startsWith('x-'));
    } else {
      const keys = source.keys;
      value = namedEntries(f, v, keys ? (k) => keys.test(k) : () => true);
    }
    if (value !== undefined) out[f.name] = value;
  }
  return out;
}
