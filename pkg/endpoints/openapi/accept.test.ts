// Accept negotiation of the OpenAPI endpoints: type and subtype only, best clause first, the
// server's order for wildcards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pickRepresentation } from './accept.js';

const offered = [
  { mediaType: 'application/json', value: 'json' },
  { mediaType: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf', value: 'pb' },
  { mediaType: 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf', value: 'pb' },
];
const pb = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

const cases: [string | undefined, string | undefined][] = [
  [undefined, 'json'],
  ['', 'json'],
  ['  ', 'json'],
  ['*/*', 'json'],
  ['*', 'json'],
  ['application/*', 'json'],
  ['application/json', 'json'],
  ['Application/JSON', 'json'],
  ['application/json, */*', 'json'],
  // stock kubectl 1.27 to 1.33 ask for exactly this
  [pb, 'pb'],
  ['application/com.github.proto-openapi.spec.v2.v1.0+protobuf', 'pb'],
  [`application/json, ${pb}`, 'json'],
  [`${pb}, application/json`, 'pb'],
  [`${pb};q=0.5, application/json`, 'json'],
  [`application/json;q=0.5, ${pb}`, 'pb'],
  [`*/*, ${pb}`, 'pb'],
  [`${pb};q=0.4, */*;q=0.5`, 'json'],
  [`${pb};q=0, application/json;q=0.1`, 'json'],
  [`${pb};q=0`, undefined],
  ['application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList', 'json'],
  ['application/vnd.kubernetes.protobuf, application/json', 'json'],
  ['text/html, application/xhtml+xml, */*;q=0.8', 'json'],
  ['text/html', undefined],
  ['application/yaml', undefined],
  [',', undefined],
  ['garbage', undefined],
];

test('the preferred representation, or none', () => {
  for (const [accept, want] of cases) assert.equal(pickRepresentation(accept, offered), want, String(accept));
});
