import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Endpoints, defaultEndpoints } from '../../../api/core/v1/endpoints.js';
import { formatEndpoints } from '../../../api/core/v1/register.js';
import { createErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { ipBytes } from '../../util/ip.js';
import { endpointsValidation } from './endpoints-validation.js';

const kind: KindUnderTest<Endpoints> = { schema: Endpoints, validation: endpointsValidation, defaulter: defaultEndpoints };
const ep = (subsets: unknown[]) => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'svc', namespace: 'default' }, subsets });
const addr = (ip: string, extra: Record<string, unknown> = {}) => ({ ip, ...extra });

test('valid endpoints are accepted and ports default to TCP', () => {
  const obj = ep([{
    addresses: [addr('10.1.2.3', { hostname: 'web-0', nodeName: 'node-1', targetRef: { kind: 'Pod', name: 'web-0', namespace: 'default' } })],
    notReadyAddresses: [addr('2001:db8::5')],
    ports: [{ name: 'http', port: 80 }, { name: 'grpc', port: 9000, protocol: '', appProtocol: 'example.com/grpc' }],
  }]);
  assert.deepEqual(createErrors(kind, obj), []);
  const defaulted = structuredClone(obj) as Endpoints;
  defaultEndpoints(defaulted);
  assert.equal(defaulted.subsets![0]!.ports![1]!.protocol, 'TCP');
  assert.deepEqual(createErrors(kind, ep([])), []);
  assert.deepEqual(createErrors(kind, ep([{ addresses: [addr('10.0.0.1')] }])), [], 'ports may be left out (headless)');
});

test('a subset needs addresses or not-ready addresses', () => {
  const errs = createErrors(kind, ep([{ ports: [{ port: 80 }] }]));
  assert.deepEqual(summary(errs), ['FieldValueRequired subsets[0]']);
  assert.equal(errs[0]!.detail, 'must specify `addresses` or `notReadyAddresses`');
});

test('addresses must be valid IPs outside the special ranges', () => {
  const detail = (ip: string) => createErrors(kind, ep([{ notReadyAddresses: [addr(ip)] }])).map((e) => `${e.field}: ${e.detail}`);
  assert.deepEqual(detail('10.0.0.300'), ['subsets[0].notReadyAddresses[0].ip: must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
  assert.deepEqual(detail('127.0.0.1'), ['subsets[0].notReadyAddresses[0].ip: may not be in the loopback range (127.0.0.0/8, ::1/128)']);
  assert.deepEqual(detail('::1'), ['subsets[0].notReadyAddresses[0].ip: may not be in the loopback range (127.0.0.0/8, ::1/128)']);
  assert.deepEqual(detail('::ffff:127.0.0.2'), ['subsets[0].notReadyAddresses[0].ip: may not be in the loopback range (127.0.0.0/8, ::1/128)']);
  assert.deepEqual(detail('169.254.169.254'), ['subsets[0].notReadyAddresses[0].ip: may not be in the link-local range (169.254.0.0/16, fe80::/10)']);
  assert.deepEqual(detail('fe80::1'), ['subsets[0].notReadyAddresses[0].ip: may not be in the link-local range (169.254.0.0/16, fe80::/10)']);
  assert.deepEqual(detail('224.0.0.1'), ['subsets[0].notReadyAddresses[0].ip: may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']);
  assert.deepEqual(detail('ff02::2'), ['subsets[0].notReadyAddresses[0].ip: may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']);
  assert.deepEqual(detail('0.0.0.0'), ['subsets[0].notReadyAddresses[0].ip: may not be unspecified (0.0.0.0)']);
  assert.deepEqual(detail('::'), ['subsets[0].notReadyAddresses[0].ip: may not be unspecified (::)']);
  assert.deepEqual(detail('224.0.1.1'), []);
  assert.deepEqual(detail('fd00::1'), []);
});

test('ipBytes parses both families', () => {
  assert.deepEqual(ipBytes('1.2.3.4'), [1, 2, 3, 4]);
  assert.deepEqual(ipBytes('::ffff:1.2.3.4'), [1, 2, 3, 4]);
  assert.deepEqual(ipBytes('2001:db8::1'), [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  assert.equal(ipBytes('fe80::1%eth0'), null);
  assert.equal(ipBytes('x'), null);
});

test('hostname is a DNS label and nodeName a DNS subdomain', () => {
  assert.deepEqual(summary(createErrors(kind, ep([{ addresses: [addr('10.0.0.1', { hostname: 'a.b', nodeName: 'Node_1' })] }]))),
    ['FieldValueInvalid subsets[0].addresses[0].hostname', 'FieldValueInvalid subsets[0].addresses[0].nodeName']);
});

test('ports: numbers in range, names required when several, DNS labels, known protocols', () => {
  assert.deepEqual(summary(createErrors(kind, ep([{ addresses: [addr('10.0.0.1')], ports: [{ port: 80 }, { name: 'b', port: 81 }] }]))),
    ['FieldValueRequired subsets[0].ports[0].name']);
  assert.deepEqual(summary(createErrors(kind, ep([{ addresses: [addr('10.0.0.1')], ports: [{ name: 'Http', port: 0 }] }]))),
    ['FieldValueInvalid subsets[0].ports[0].name', 'FieldValueInvalid subsets[0].ports[0].port']);
  assert.deepEqual(summary(createErrors(kind, ep([{ addresses: [addr('10.0.0.1')], ports: [{ port: 70000 }] }]))).length, 1);
  assert.deepEqual(summary(createErrors(kind, ep([{ addresses: [addr('10.0.0.1')], ports: [{ port: 80, protocol: 'ICMP' }] }]))),
    ['FieldValueNotSupported subsets[0].ports[0].protocol']);
  assert.deepEqual(summary(createErrors(kind, ep([{ addresses: [addr('10.0.0.1')], ports: [{ port: 80, appProtocol: 'a b' }] }]))),
    ['FieldValueInvalid subsets[0].ports[0].appProtocol']);
});

test('updates are checked like creates', () => {
  const old = ep([{ addresses: [addr('10.0.0.1')] }]);
  assert.deepEqual(updateErrors(kind, ep([{ addresses: [addr('10.0.0.2')] }]), old), []);
  assert.deepEqual(summary(updateErrors(kind, ep([{ addresses: [addr('127.0.0.1')] }]), old)), ['FieldValueInvalid subsets[0].addresses[0].ip']);
});

test('the Endpoints column lists at most three ip:port pairs', () => {
  const cell = (subsets: unknown[]) => formatEndpoints(ep(subsets) as Endpoints);
  assert.equal(cell([]), '<none>');
  assert.equal(formatEndpoints({ metadata: {} } as Endpoints), '<none>');
  assert.equal(cell([{ addresses: [addr('10.0.0.1'), addr('10.0.0.2')] }]), '10.0.0.1,10.0.0.2');
  assert.equal(cell([{ addresses: [addr('10.0.0.1'), addr('2001:db8::1')], ports: [{ port: 80 }] }]), '10.0.0.1:80,[2001:db8::1]:80');
  assert.equal(cell([{ addresses: [addr('10.0.0.1'), addr('10.0.0.2')], ports: [{ name: 'a', port: 80 }, { name: 'b', port: 443 }] }]),
    '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...');
  assert.equal(cell([
    { addresses: [addr('10.0.0.1'), addr('10.0.0.2')], ports: [{ port: 80 }] },
    { addresses: [addr('10.0.1.1'), addr('10.0.1.2'), addr('10.0.1.3')], ports: [{ port: 8080 }] },
    { notReadyAddresses: [addr('10.0.2.1')], ports: [{ port: 1 }] },
  ]), '10.0.0.1:80,10.0.0.2:80,10.0.1.1:8080 + 2 more...');
});
