// The protobuf messages of gnostic's OpenAPI v2 model (package openapi.v2), the form upstream
// serves /openapi/v2 in as application/com.github.proto-openapi.spec.v2.v1.0+protobuf. Each
// message is declared once here, with the Swagger 2.0 key every field is read from, so the
// protobufjs types and the JSON-to-message conversion cannot drift apart. Field numbers and names
// follow gnostic's openapiv2/OpenAPIv2.proto (proto3).
import protobuf from 'protobufjs';

export type ScalarType = 'string' | 'bool' | 'int64' | 'double';

/** Where a field's value is found in the JSON object its message is built from. */
export type FieldSource =
  /** One key of the object. */
  | { key: string }
  /** Every `x-` key, as NamedAny (the vendor_extension fields). */
  | { extensions: true }
  /** Every key (or those matching `keys`), as Named<Value> entries in document order. */
  | { entries: true; keys?: RegExp };

export interface FieldSpec {
  /** The field's name in the .proto file (and in protobufjs message objects). */
  name: string;
  id: number;
  /** A scalar type or the name of a message of this package. */
  type: ScalarType | string;
  repeated: boolean;
  /** Absent for the members of a oneof and the wrapper messages, which are converted by hand. */
  source?: FieldSource;
}

export interface MessageSpec {
  fields: FieldSpec[];
  /** gnostic names every oneof `oneof`; the members are the message's fields. */
  oneof?: boolean;
}

/** `basePath` -> `base_path`, `$ref` -> `_ref`: the .proto spelling of a Swagger key. */
function protoName(key: string): string {
  return key.replace(/^\$/, '_').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function parseType(type: string): { type: string; repeated: boolean } {
  return type.endsWith('*') ? { type: type.slice(0, -1), repeated: true } : { type, repeated: false };
}

/** A field read from the Swagger key `key`; a trailing `*` on the type makes it repeated. */
const f = (key: string, id: number, type: string): FieldSpec => ({ name: protoName(key), id, ...parseType(type), source: { key } });
/** repeated NamedAny vendor_extension: the object's `x-` keys. */
const ext = (id: number): FieldSpec => ({ name: 'vendor_extension', id, type: 'NamedAny', repeated: true, source: { extensions: true } });
/** A map of the object's keys (those matching `keys`) to values of `valueType`. */
const entries = (name: string, id: number, valueType: string, keys?: RegExp): FieldSpec => ({
  name, id, type: `Named${valueType}`, repeated: true, source: keys ? { entries: true, keys } : { entries: true },
});
/** A field converted by hand (oneof members and the wrappers of plain values). */
const member = (name: string, id: number, type: string): FieldSpec => ({ name, id, ...parseType(type) });

const message = (...fields: FieldSpec[]): MessageSpec => ({ fields });
const oneof = (...fields: FieldSpec[]): MessageSpec => ({ fields, oneof: true });
const map = (valueType: string): MessageSpec => message(entries('additional_properties', 1, valueType));

/** Fields shared, with their own numbers, by the parameter sub-schemas, Header and PrimitivesItems. */
const validations = (first: number): FieldSpec[] => [
  f('collectionFormat', first, 'string'),
  f('default', first + 1, 'Any'),
  f('maximum', first + 2, 'double'),
  f('exclusiveMaximum', first + 3, 'bool'),
  f('minimum', first + 4, 'double'),
  f('exclusiveMinimum', first + 5, 'bool'),
  f('maxLength', first + 6, 'int64'),
  f('minLength', first + 7, 'int64'),
  f('pattern', first + 8, 'string'),
  f('maxItems', first + 9, 'int64'),
  f('minItems', first + 10, 'int64'),
  f('uniqueItems', first + 11, 'bool'),
  f('enum', first + 12, 'Any*'),
  f('multipleOf', first + 13, 'double'),
];

/** Query and formData parameters (they may allow an empty value). */
const queryLike = (): MessageSpec => message(
  f('required', 1, 'bool'), f('in', 2, 'string'), f('description', 3, 'string'), f('name', 4, 'string'),
  f('allowEmptyValue', 5, 'bool'), f('type', 6, 'string'), f('format', 7, 'string'), f('items', 8, 'PrimitivesItems'),
  ...validations(9), ext(23),
);

/** Header and path parameters. */
const pathLike = (): MessageSpec => message(
  f('required', 1, 'bool'), f('in', 2, 'string'), f('description', 3, 'string'), f('name', 4, 'string'),
  f('type', 5, 'string'), f('format', 6, 'string'), f('items', 7, 'PrimitivesItems'),
  ...validations(8), ext(22),
);

const oauth2Scopes = f('scopes', 3, 'Oauth2Scopes');

/** Every message of the package, by name. */
export const gnosticV2Messages: Record<string, MessageSpec> = {
  AdditionalPropertiesItem: oneof(member('schema', 1, 'Schema'), member('boolean', 2, 'bool')),
  Any: message(member('value', 1, 'google.protobuf.Any'), member('yaml', 2, 'string')),
  ApiKeySecurity: message(f('type', 1, 'string'), f('name', 2, 'string'), f('in', 3, 'string'), f('description', 4, 'string'), ext(5)),
  BasicAuthenticationSecurity: message(f('type', 1, 'string'), f('description', 2, 'string'), ext(3)),
  BodyParameter: message(
    f('description', 1, 'string'), f('name', 2, 'string'), f('in', 3, 'string'), f('required', 4, 'bool'),
    f('schema', 5, 'Schema'), ext(6),
  ),
  Contact: message(f('name', 1, 'string'), f('url', 2, 'string'), f('email', 3, 'string'), ext(4)),
  Default: map('Any'),
  Definitions: map('Schema'),
  Document: message(
    f('swagger', 1, 'string'), f('info', 2, 'Info'), f('host', 3, 'string'), f('basePath', 4, 'string'),
    f('schemes', 5, 'string*'), f('consumes', 6, 'string*'), f('produces', 7, 'string*'), f('paths', 8, 'Paths'),
    f('definitions', 9, 'Definitions'), f('parameters', 10, 'ParameterDefinitions'), f('responses', 11, 'ResponseDefinitions'),
    f('security', 12, 'SecurityRequirement*'), f('securityDefinitions', 13, 'SecurityDefinitions'), f('tags', 14, 'Tag*'),
    f('externalDocs', 15, 'ExternalDocs'), ext(16),
  ),
  Examples: map('Any'),
  ExternalDocs: message(f('description', 1, 'string'), f('url', 2, 'string'), ext(3)),
  FileSchema: message(
    f('format', 1, 'string'), f('title', 2, 'string'), f('description', 3, 'string'), f('default', 4, 'Any'),
    f('required', 5, 'string*'), f('type', 6, 'string'), f('readOnly', 7, 'bool'), f('externalDocs', 8, 'ExternalDocs'),
    f('example', 9, 'Any'), ext(10),
  ),
  FormDataParameterSubSchema: queryLike(),
  Header: message(
    f('type', 1, 'string'), f('format', 2, 'string'), f('items', 3, 'PrimitivesItems'), ...validations(4),
    f('description', 18, 'string'), ext(19),
  ),
  HeaderParameterSubSchema: pathLike(),
  Headers: map('Header'),
  Info: message(
    f('title', 1, 'string'), f('version', 2, 'string'), f('description', 3, 'string'), f('termsOfService', 4, 'string'),
    f('contact', 5, 'Contact'), f('license', 6, 'License'), ext(7),
  ),
  ItemsItem: message(member('schema', 1, 'Schema*')),
  JsonReference: message(f('$ref', 1, 'string'), f('description', 2, 'string')),
  License: message(f('name', 1, 'string'), f('url', 2, 'string'), ext(3)),
  NonBodyParameter: oneof(
    member('header_parameter_sub_schema', 1, 'HeaderParameterSubSchema'),
    member('form_data_parameter_sub_schema', 2, 'FormDataParameterSubSchema'),
    member('query_parameter_sub_schema', 3, 'QueryParameterSubSchema'),
    member('path_parameter_sub_schema', 4, 'PathParameterSubSchema'),
  ),
  Oauth2AccessCodeSecurity: message(
    f('type', 1, 'string'), f('flow', 2, 'string'), oauth2Scopes, f('authorizationUrl', 4, 'string'), f('tokenUrl', 5, 'string'),
    f('description', 6, 'string'), ext(7),
  ),
  Oauth2ApplicationSecurity: message(
    f('type', 1, 'string'), f('flow', 2, 'string'), oauth2Scopes, f('tokenUrl', 4, 'string'), f('description', 5, 'string'), ext(6),
  ),
  Oauth2ImplicitSecurity: message(
    f('type', 1, 'string'), f('flow', 2, 'string'), oauth2Scopes, f('authorizationUrl', 4, 'string'), f('description', 5, 'string'), ext(6),
  ),
  Oauth2PasswordSecurity: message(
    f('type', 1, 'string'), f('flow', 2, 'string'), oauth2Scopes, f('tokenUrl', 4, 'string'), f('description', 5, 'string'), ext(6),
  ),
  Oauth2Scopes: map('String'),
  Operation: message(
    f('tags', 1, 'string*'), f('summary', 2, 'string'), f('description', 3, 'string'), f('externalDocs', 4, 'ExternalDocs'),
    f('operationId', 5, 'string'), f('produces', 6, 'string*'), f('consumes', 7, 'string*'), f('parameters', 8, 'ParametersItem*'),
    f('responses', 9, 'Responses'), f('schemes', 10, 'string*'), f('deprecated', 11, 'bool'), f('security', 12, 'SecurityRequirement*'),
    ext(13),
  ),
  Parameter: oneof(member('body_parameter', 1, 'BodyParameter'), member('non_body_parameter', 2, 'NonBodyParameter')),
  ParameterDefinitions: map('Parameter'),
  ParametersItem: oneof(member('parameter', 1, 'Parameter'), member('json_reference', 2, 'JsonReference')),
  PathItem: message(
    f('$ref', 1, 'string'), f('get', 2, 'Operation'), f('put', 3, 'Operation'), f('post', 4, 'Operation'),
    f('delete', 5, 'Operation'), f('options', 6, 'Operation'), f('head', 7, 'Operation'), f('patch', 8, 'Operation'),
    f('parameters', 9, 'ParametersItem*'), ext(10),
  ),
  PathParameterSubSchema: pathLike(),
  Paths: message(ext(1), entries('path', 2, 'PathItem', /^\//)),
  PrimitivesItems: message(
    f('type', 1, 'string'), f('format', 2, 'string'), f('items', 3, 'PrimitivesItems'), ...validations(4), ext(18),
  ),
  Properties: map('Schema'),
  QueryParameterSubSchema: queryLike(),
  Response: message(
    f('description', 1, 'string'), f('schema', 2, 'SchemaItem'), f('headers', 3, 'Headers'), f('examples', 4, 'Examples'), ext(5),
  ),
  ResponseDefinitions: map('Response'),
  ResponseValue: oneof(member('response', 1, 'Response'), member('json_reference', 2, 'JsonReference')),
  Responses: message(entries('response_code', 1, 'ResponseValue', /^([0-9]{3}|default)$/), ext(2)),
  Schema: message(
    f('$ref', 1, 'string'), f('format', 2, 'string'), f('title', 3, 'string'), f('description', 4, 'string'),
    f('default', 5, 'Any'), f('multipleOf', 6, 'double'), f('maximum', 7, 'double'), f('exclusiveMaximum', 8, 'bool'),
    f('minimum', 9, 'double'), f('exclusiveMinimum', 10, 'bool'), f('maxLength', 11, 'int64'), f('minLength', 12, 'int64'),
    f('pattern', 13, 'string'), f('maxItems', 14, 'int64'), f('minItems', 15, 'int64'), f('uniqueItems', 16, 'bool'),
    f('maxProperties', 17, 'int64'), f('minProperties', 18, 'int64'), f('required', 19, 'string*'), f('enum', 20, 'Any*'),
    f('additionalProperties', 21, 'AdditionalPropertiesItem'), f('type', 22, 'TypeItem'), f('items', 23, 'ItemsItem'),
    f('allOf', 24, 'Schema*'), f('properties', 25, 'Properties'), f('discriminator', 26, 'string'), f('readOnly', 27, 'bool'),
    f('xml', 28, 'Xml'), f('externalDocs', 29, 'ExternalDocs'), f('example', 30, 'Any'), ext(31),
  ),
  SchemaItem: oneof(member('schema', 1, 'Schema'), member('file_schema', 2, 'FileSchema')),
  SecurityDefinitions: map('SecurityDefinitionsItem'),
  SecurityDefinitionsItem: oneof(
    member('basic_authentication_security', 1, 'BasicAuthenticationSecurity'),
    member('api_key_security', 2, 'ApiKeySecurity'),
    member('oauth2_implicit_security', 3, 'Oauth2ImplicitSecurity'),
    member('oauth2_password_security', 4, 'Oauth2PasswordSecurity'),
    member('oauth2_application_security', 5, 'Oauth2ApplicationSecurity'),
    member('oauth2_access_code_security', 6, 'Oauth2AccessCodeSecurity'),
  ),
  SecurityRequirement: map('StringArray'),
  StringArray: message(member('value', 1, 'string*')),
  Tag: message(f('name', 1, 'string'), f('description', 2, 'string'), f('externalDocs', 3, 'ExternalDocs'), ext(4)),
  TypeItem: message(member('value', 1, 'string*')),
  VendorExtension: map('Any'),
  Xml: message(
    f('name', 1, 'string'), f('namespace', 2, 'string'), f('prefix', 3, 'string'), f('attribute', 4, 'bool'),
    f('wrapped', 5, 'bool'), ext(6),
  ),
};

/** The values gnostic keeps in Named<Value> messages (`string name = 1; <Value> value = 2;`). */
const namedValueTypes = ['Any', 'Header', 'Parameter', 'PathItem', 'Response', 'ResponseValue', 'Schema', 'SecurityDefinitionsItem', 'String', 'StringArray'];

for (const value of namedValueTypes) {
  gnosticV2Messages[`Named${value}`] = message(member('name', 1, 'string'), member('value', 2, value === 'String' ? 'string' : value));
}

export const gnosticV2Package = 'openapi.v2';

/** A protobufjs root holding every message of the package (and google.protobuf.Any, which Any refers to). */
export function gnosticV2Root(): protobuf.Root {
  const root = new protobuf.Root();
  root.define('google.protobuf').add(new protobuf.Type('Any')
    .add(new protobuf.Field('type_url', 1, 'string'))
    .add(new protobuf.Field('value', 2, 'bytes')));
  const ns = root.define(gnosticV2Package);
  for (const [name, spec] of Object.entries(gnosticV2Messages)) {
    const type = new protobuf.Type(name);
    for (const field of spec.fields) type.add(new protobuf.Field(field.name, field.id, field.type, field.repeated ? 'repeated' : undefined));
    if (spec.oneof) type.add(new protobuf.OneOf('oneof', spec.fields.map((x) => x.name)));
    ns.add(type);
  }
  root.resolveAll();
  return root;
}
