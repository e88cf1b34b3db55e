// A Swagger 2.0 document that reaches every construct of gnostic's OpenAPI v2 model (oneofs,
// security schemes, file schemas, form and header parameters, references, nested vendor
// extensions), and the bytes upstream's gnostic-models ParseDocument + proto.Marshal produced for
// its JSON.stringify text, recorded once from upstream's library.
import type { JsonObject } from '../types.js';

const ext = { 'x-deep': { a: [{ b: [{ c: { d: ['e', { f: 'g\nh' }] } }], i: 'j k' }], l: [[['m']]], n: { o: [{ p: 'q\n' }] } }, 'x-num': 1e21, 'x-neg': -0.5, 'x-big': 2 ** 60 };
export const goldenDocument: JsonObject = {
  swagger: '2.0', host: 'example.com', basePath: '/base', schemes: ['https', 'http'], consumes: ['application/json'], produces: ['application/json', 'text/plain'],
  info: { title: 'T', version: '1', description: 'd', termsOfService: 'tos', contact: { name: 'n', url: 'u', email: 'e', 'x-c': 1 }, license: { name: 'MIT', url: 'l' }, 'x-info': true },
  tags: [{ name: 't', description: 'td', externalDocs: { url: 'x', description: 'y' }, 'x-t': 't' }],
  externalDocs: { url: 'ed' },
  paths: {
    'x-paths': 'p',
    '/a/{id}': {
      parameters: [{ $ref: '#/parameters/id' }, { name: 'h', in: 'header', type: 'string', required: true }],
      get: {
        tags: ['t'], summary: 's', description: 'd', operationId: 'getA', deprecated: true, produces: ['application/json'], consumes: [], schemes: ['https'],
        security: [{ k: ['a', 'b'] }, {}],
        parameters: [
          { name: 'q', in: 'query', type: 'array', items: { type: 'integer', format: 'int32', items: { type: 'string' }, default: [1], maximum: 5, exclusiveMaximum: true, minimum: -1, exclusiveMinimum: false, maxLength: 3, minLength: 0, pattern: 'p', maxItems: 4, minItems: 1, uniqueItems: true, enum: [1, 2], multipleOf: 0.5, 'x-pi': 'v' }, collectionFormat: 'csv', allowEmptyValue: true, default: 'd', enum: ['a', 'b', ''], 'x-q': null },
          { name: 'f', in: 'formData', type: 'file', required: false },
          { name: 'p', in: 'path', type: 'string', required: true, description: 'pd' },
          { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/A' }, description: 'bd', 'x-b': [1] },
        ],
        responses: {
          '200': { description: 'ok', schema: { $ref: '#/definitions/A' }, headers: { 'X-H': { type: 'string', description: 'hd', 'x-h': 1, enum: ['a'] } }, examples: { 'application/json': { a: 1 } }, 'x-r': 'r' },
          '201': { description: 'file', schema: { type: 'file', description: 'fd' } },
          '404': { $ref: '#/responses/NotFound' },
          default: { description: 'def' },
          'x-responses': { a: 'b' },
        },
        'x-kubernetes-action': 'get',
        ...ext,
      },
      put: { responses: { '200': { description: 'ok' } } },
      post: { responses: {} }, delete: { responses: { '204': { description: '' } } }, options: { responses: {} }, head: { responses: {} }, patch: { responses: {} },
      'x-item': 1,
    },
    '/b': { $ref: '#/paths/~1a~1{id}' },
  },
  definitions: {
    A: {
      type: 'object', title: 'A', description: 'a', required: ['x'], discriminator: 'x', readOnly: true, minProperties: 1, maxProperties: 9,
      properties: { x: { type: 'string', default: '', example: 'ex' }, y: { type: ['string', 'null'] }, z: { type: 'array', items: { $ref: '#/definitions/B' } }, w: { allOf: [{ $ref: '#/definitions/B' }, { type: 'object' }] }, e: {} },
      additionalProperties: false, xml: { name: 'a', namespace: 'ns', prefix: 'p', attribute: true, wrapped: false, 'x-x': 'x' }, externalDocs: { url: 'u' }, example: { x: 'y' },
      ...ext,
    },
    B: { type: 'object', additionalProperties: { type: 'integer', format: 'int64' }, enum: [{ a: 1 }, [1, 2], null, true, 'yes', '1'], default: { a: [] } },
    C: { items: [{ type: 'string' }, { type: 'integer' }] },
    D: { 'x-kubernetes-preserve-unknown-fields': true },
  },
  parameters: { id: { name: 'id', in: 'path', required: true, type: 'string', uniqueItems: true }, body: { name: 'body', in: 'body', schema: { type: 'object' } } },
  responses: { NotFound: { description: 'nf', schema: { $ref: '#/definitions/A' } } },
  securityDefinitions: {
    basic: { type: 'basic', description: 'b', 'x-s': 1 }, key: { type: 'apiKey', name: 'authorization', in: 'header' },
    imp: { type: 'oauth2', flow: 'implicit', authorizationUrl: 'au', scopes: { read: 'r', write: '' } },
    pw: { type: 'oauth2', flow: 'password', tokenUrl: 'tu', scopes: {} },
    app: { type: 'oauth2', flow: 'application', tokenUrl: 'tu', scopes: { a: 'b' } },
    code: { type: 'oauth2', flow: 'accessCode', authorizationUrl: 'au', tokenUrl: 'tu', scopes: { a: 'b' }, description: 'c' },
  },
  security: [{ key: [] }, { imp: ['read'] }],
  'x-top': { k: 'v' },
};

/** Base64 of upstream's protobuf bytes for JSON.stringify(goldenDocument). */
export const goldenProtobuf = [
  'CgMyLjASQwoBVBIBMRoBZCIDdG9zKhYKAW4SAXUaAWUiCwoDeC1jEgQSAjEKMggKA01JVBIBbDoRCgZ4LWluZm8SBxIFdHJ1ZQoa',
  'C2V4YW1wbGUuY29tIgUvYmFzZSoFaHR0cHMqBGh0dHAyEGFwcGxpY2F0aW9uL2pzb246EGFwcGxpY2F0aW9uL2pzb246CnRleHQv',
  'cGxhaW5CwQgKDwoHeC1wYXRocxIEEgJwChKSCAoHL2Eve2lkfRKGCBKPBwoBdBIBcxoBZCoEZ2V0QTIQYXBwbGljYXRpb24vanNv',
  'bkK4AQq1ARKyARqvARIFcXVlcnkiAXEoATIFYXJyYXlCaAoHaW50ZWdlchIFaW50MzIaCAoGc3RyaW5nKgYSBC0gMQoxAAAAAAAA',
  'FEA4AUEAAAAAAADwv1ADYgFwaARwAXgBggEEEgIxCoIBBBICMgqJAQAAAAAAAOA/kgEMCgR4LXBpEgQSAnYKSgNjc3ZSBBICZAqq',
  'AQQSAmEKqgEEEgJiCqoBBRIDIiIKugEOCgN4LXESBxIFbnVsbApCGQoXEhUSExIIZm9ybURhdGEiAWYyBGZpbGVCHQobEhkiFwgB',
  'EgRwYXRoGgJwZCIBcCoGc3RyaW5nQjgKNgo0CgJiZBIEYm9keRoEYm9keSABKhEKDyMvZGVmaW5pdGlvbnMvQTINCgN4LWISBhIE',
  'LSAxCkrpAQp7CgMyMDASdApyCgJvaxITChEKDyMvZGVmaW5pdGlvbnMvQRorCikKA1gtSBIiCgZzdHJpbmeCAQQSAmEKkgECaGSa',
  'AQsKA3gtaBIEEgIxCiIdChsKEGFwcGxpY2F0aW9uL2pzb24SBxIFYTogMQoqCwoDeC1yEgQSAnIKCh0KAzIwMRIWChQKBGZpbGUS',
  'DBIKGgJmZDIEZmlsZQofCgM0MDQSGBIWChQjL3Jlc3BvbnNlcy9Ob3RGb3VuZAoSCgdkZWZhdWx0EgcKBQoDZGVmEhYKC3gtcmVz',
  'cG9uc2VzEgcSBWE6IGIKUgVodHRwc1gBYg0KCwoBaxIGCgFhCgFiYgBqHQoTeC1rdWJlcm5ldGVzLWFjdGlvbhIGEgRnZXQKatEB',
  'CgZ4LWRlZXASxgESwwFhOgogICAgLSBiOgogICAgICAgIC0gYzoKICAgICAgICAgICAgZDoKICAgICAgICAgICAgICAgIC0gZQog',
  'ICAgICAgICAgICAgICAgLSBmOiB8LQogICAgICAgICAgICAgICAgICAgIGcKICAgICAgICAgICAgICAgICAgICBoCiAgICAgIGk6',
  'IGogawpsOgogICAgLSAtIC0gbQpuOgogICAgbzoKICAgICAgICAtIHA6IHwKICAgICAgICAgICAgcQpqEQoFeC1udW0SCBIGMWUr',
  'MjEKahAKBXgtbmVnEgcSBS0wLjUKah8KBXgtYmlnEhYSFDExNTI5MjE1MDQ2MDY4NDcwMDAKGhFKDwoNCgMyMDASBgoECgJvayIC',
  'SgAqDUoLCgkKAzIwNBICCgAyAkoAOgJKAEICSgBKExIRCg8jL3BhcmFtZXRlcnMvaWRKGwoZEhcKFQgBEgZoZWFkZXIiAWgqBnN0',
  'cmluZ1IOCgZ4LWl0ZW0SBBICMQoSGQoCL2ISEwoRIy9wYXRocy9+MWF+MXtpZH1KxAUKiwQKAUEShQQaAUEiAWGIAQmQAQGaAQF4',
  'qgECEACyAQgKBm9iamVjdMoBkAEKHwoBeBIaKgUSAyIiCrIBCAoGc3RyaW5n8gEFEgNleAoKFgoBeRIRsgEOCgZzdHJpbmcKBG51',
  'bGwKJQoBehIgsgEHCgVhcnJheboBEwoRCg8jL2RlZmluaXRpb25zL0IKJwoBdxIiwgERCg8jL2RlZmluaXRpb25zL0LCAQuyAQgK',
  'Bm9iamVjdAoFCgFlEgDSAQF42AEB4gEZCgFhEgJucxoBcCABMgsKA3gteBIEEgJ4CuoBAxIBdfIBBxIFeDogeQr6AdEBCgZ4LWRl',
  'ZXASxgESwwFhOgogICAgLSBiOgogICAgICAgIC0gYzoKICAgICAgICAgICAgZDoKICAgICAgICAgICAgICAgIC0gZQogICAgICAg',
  'ICAgICAgICAgLSBmOiB8LQogICAgICAgICAgICAgICAgICAgIGcKICAgICAgICAgICAgICAgICAgICBoCiAgICAgIGk6IGogawps',
  'OgogICAgLSAtIC0gbQpuOgogICAgbzoKICAgICAgICAtIHA6IHwKICAgICAgICAgICAgcQr6AREKBXgtbnVtEggSBjFlKzIxCvoB',
  'EAoFeC1uZWcSBxIFLTAuNQr6AR8KBXgtYmlnEhYSFDExNTI5MjE1MDQ2MDY4NDcwMDAKCm8KAUISaioIEgZhOiBbXQqiAQcSBWE6',
  'IDEKogEKEggtIDEKLSAyCqIBBxIFbnVsbAqiAQcSBXRydWUKogEGEgR5ZXMKogEGEgQiMSIKqgEVChMSBWludDY0sgEJCgdpbnRl',
  'Z2VysgEICgZvYmplY3QKCgoBQxIFugECCgAKNwoBRBIy+gEvCiR4LWt1YmVybmV0ZXMtcHJlc2VydmUtdW5rbm93bi1maWVsZHMS',
  'BxIFdHJ1ZQpSSAohCgJpZBIbEhkiFwgBEgRwYXRoIgJpZCoGc3RyaW5nmAEBCiMKBGJvZHkSGwoZEgRib2R5GgRib2R5KguyAQgK',
  'Bm9iamVjdFonCiUKCE5vdEZvdW5kEhkKAm5mEhMKEQoPIy9kZWZpbml0aW9ucy9BYgkKBwoDa2V5EgBiDwoNCgNpbXASBgoEcmVh',
  'ZGqKAgoiCgViYXNpYxIZChcKBWJhc2ljEgFiGgsKA3gtcxIEEgIxCgooCgNrZXkSIRIfCgZhcGlLZXkSDWF1dGhvcml6YXRpb24a',
  'BmhlYWRlcgo1CgNpbXASLhosCgZvYXV0aDISCGltcGxpY2l0GhQKCQoEcmVhZBIBcgoHCgV3cml0ZSICYXUKIAoCcHcSGiIYCgZv',
  'YXV0aDISCHBhc3N3b3JkGgAiAnR1CiwKA2FwcBIlKiMKBm9hdXRoMhILYXBwbGljYXRpb24aCAoGCgFhEgFiIgJ0dQozCgRjb2Rl',
  'EisyKQoGb2F1dGgyEgphY2Nlc3NDb2RlGggKBgoBYRIBYiICYXUqAnR1MgFjchwKAXQSAnRkGgYKAXkSAXgiCwoDeC10EgQSAnQK',
  'egQSAmVkggEQCgV4LXRvcBIHEgVrOiB2Cg==',
].join('');
