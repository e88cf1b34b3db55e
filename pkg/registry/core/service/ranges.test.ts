import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IPRange, PortRange } from './ranges.js';

test('IP ranges: usable offsets skip the network and broadcast addresses', () => {
  const r = IPRange.parse('10.0.0.0/24');
  assert.equal(r.size, 254);
  assert.equal(r.ipAt(1), '10.0.0.1');
  assert.equal(r.offsetOf('10.0.0.254'), 254);
  assert.equal(r.offsetOf('10.0.0.255'), null);
  assert.equal(r.offsetOf('10.0.0.0'), null);
  assert.equal(r.offsetOf('10.0.1.1'), null);
  assert.equal(r.offsetOf('fd00::1'), null);
  assert.equal(IPRange.parse('10.0.0.7/24').cidr, '10.0.0.0/24');
  const v6 = IPRange.parse('fd00::/120');
  assert.equal(v6.family, 'IPv6');
  assert.equal(v6.size, 255);
  assert.equal(v6.ipAt(1), 'fd00::1');
  assert.equal(v6.canonical('fd00:0::0:1'), 'fd00::1');
  assert.throws(() => IPRange.parse('10.0.0.0'), /not a valid CIDR/);
  assert.throws(() => IPRange.parse('10.0.0.0/32'), /too small/);
});

test('port ranges: a-b, base+size and single ports', () => {
  const r = PortRange.parse('30000-32767');
  assert.equal(r.size, 2768);
  assert.ok(r.contains(30000) && r.contains(32767) && !r.contains(32768) && !r.contains(29999));
  assert.equal(String(r), '30000-32767');
  assert.equal(String(PortRange.parse('30000+10')), '30000-30010');
  assert.throws(() => PortRange.parse('32767-30000'), /not a valid port range/);
  assert.throws(() => PortRange.parse('x'), /not a valid port range/);
});
