import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EndpointSlice } from '../../../api/discovery/v1/endpoint-slice.js';
import { errorMessage } from '../../runtime/field-errors.js';
import { createErrors, defaulted, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { endpointSliceValidation } from './endpoint-slice-validation.js';

const kind: KindUnderTest<EndpointSlice> = { schema: EndpointSlice, validation: endpointSliceValidation };
const slice = (fields: Record<string, unknown>) => ({
  apiVersion: 'discovery.orch.io/v1', kind: 'EndpointSlice', metadata: { name: 's', namespace: 'default' }, addressType: 'IPv4', ...fields,
});
const messages = (obj: unknown) => createErrors(kind, obj).map(errorMessage);

test('a full slice is accepted; ports default to name "" and TCP', () => {
  const obj = slice({
    endpoints: [{
      addresses: ['10.1.2.3'], conditions: { ready: true, serving: true, terminating: false }, hostname: 'web-0', nodeName: 'node-1', zone: 'zone-a',
      targetRef: { kind: 'Pod', namespace: 'default', name: 'web-0' }, hints: { forZones: [{ name: 'zone-a' }] },
    }],
    ports: [{ port: 80 }, { name: 'grpc', protocol: 'UDP', port: 9000, appProtocol: 'example.com/grpc' }],
  });
  assert.deepEqual(createErrors(kind, obj), []);
  assert.deepEqual(defaulted(kind, obj).ports![0], { port: 80, name: '', protocol: 'TCP' });
  assert.deepEqual(createErrors(kind, slice({})), [], 'no endpoints and no ports');
  assert.deepEqual(createErrors(kind, slice({ addressType: 'FQDN', endpoints: [{ addresses: ['db.example.com.'] }] })), []);
});

test('addressType is required, one of upstream\'s three, and immutable', () => {
  assert.deepEqual(messages({ ...slice({}), addressType: undefined }), ['addressType: Required value']);
  assert.deepEqual(messages(slice({ addressType: 'IP' })), ['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"']);
  assert.deepEqual(updateErrors(kind, slice({ addressType: 'IPv6' }), slice({})).map(errorMessage), ['addressType: Invalid value: "IPv6": field is immutable']);
});

test('addresses match the address type and are not special', () => {
  const detail = (addressType: string, address: string) => messages(slice({ addressType, endpoints: [{ addresses: [address] }] }));
  assert.deepEqual(detail('IPv4', '2001:db8::1'), ['endpoints[0].addresses[0]: Invalid value: "2001:db8::1": must be a valid IPv4 address']);
  assert.deepEqual(detail('IPv6', '10.0.0.1'), ['endpoints[0].addresses[0]: Invalid value: "10.0.0.1": must be a valid IPv6 address']);
  assert.deepEqual(detail('IPv4', 'web'), ['endpoints[0].addresses[0]: Invalid value: "web": must be a valid IPv4 address']);
  assert.deepEqual(detail('IPv4', '127.0.0.1'), ['endpoints[0].addresses[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)']);
  assert.deepEqual(detail('IPv6', 'fe80::1'), ['endpoints[0].addresses[0]: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)']);
  assert.deepEqual(detail('IPv4', '::ffff:10.0.0.1'), [], 'an IPv4-mapped address is IPv4, as Go reads it');
  assert.deepEqual(detail('FQDN', 'localhost'), ['endpoints[0].addresses[0]: Invalid value: "localhost": should be a domain with at least two segments separated by dots']);
  assert.deepEqual(detail('FQDN', 'Bad.example.com'), [
    'endpoints[0].addresses[0]: Invalid value: "Bad.example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
  ]);
  assert.deepEqual(messages(slice({ endpoints: [{ addresses: [] }] })), ['endpoints[0].addresses: Required value: must contain at least 1 address']);
  assert.deepEqual(messages(slice({ endpoints: [{}] })), ['endpoints[0].addresses: Required value']);
});

test('node names, host names and zone hints', () => {
  const errs = createErrors(kind, slice({
    endpoints: [{ addresses: ['10.0.0.1'], nodeName: 'Node_1', hostname: 'web.0', hints: { forZones: [{ name: 'a' }, { name: 'a' }, { name: '-b' }] } }],
  }));
  assert.deepEqual(summary(errs), [
    'FieldValueInvalid endpoints[0].nodeName', 'FieldValueInvalid endpoints[0].hostname',
    'FieldValueDuplicate endpoints[0].hints.forZones[1].name', 'FieldValueInvalid endpoints[0].hints.forZones[2].name',
  ]);
  assert.equal(errorMessage(errs[2]!), 'endpoints[0].hints.forZones[1].name: Duplicate value: "a"');
  const nine = Array.from({ length: 9 }, (_, i) => ({ name: `z${i}` }));
  assert.deepEqual(messages(slice({ endpoints: [{ addresses: ['10.0.0.1'], hints: { forZones: nine } }] })), ['endpoints[0].hints.forZones: Too many: 9: must have at most 8 items']);
});

test('ports: unique names that are DNS labels, supported protocols, qualified app protocols', () => {
  assert.deepEqual(messages(slice({ ports: [{ name: 'http', port: 80 }, { name: 'http', port: 81 }, { port: 82 }, { port: 83 }] })), [
    'ports[1].name: Duplicate value: "http"', 'ports[3].name: Duplicate value: ""',
  ]);
  assert.deepEqual(messages(slice({ ports: [{ name: 'HTTP', port: 80 }] })).length, 1);
  assert.deepEqual(messages(slice({ ports: [{ port: 80, protocol: 'ICMP' }] })), ['ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"']);
  assert.deepEqual(summary(createErrors(kind, slice({ ports: [{ port: 80, appProtocol: 'a/b/c' }] }))), ['FieldValueInvalid ports[0].appProtocol']);
});

test('at most 1000 endpoints, counted alone as upstream; at most 100 addresses each', () => {
  const many = Array.from({ length: 1001 }, () => ({ addresses: ['127.0.0.1'] }));
  assert.deepEqual(messages(slice({ endpoints: many })), ['endpoints: Too many: 1001: must have at most 1000 items']);
  assert.deepEqual(createErrors(kind, slice({ endpoints: many.slice(0, 1000).map(() => ({ addresses: ['10.0.0.1'] })) })), []);
  const addresses = Array.from({ length: 101 }, (_, i) => `10.0.${i >> 8}.${(i % 250) + 1}`);
  assert.deepEqual(messages(slice({ endpoints: [{ addresses }] })), ['endpoints[0].addresses: Too many: 101: must have at most 100 items']);
});
