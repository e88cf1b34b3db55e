import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalIP } from './ip.js';

test('canonicalIP prints addresses as Go does', () => {
  assert.deepEqual(canonicalIP('10.1.2.3'), { family: 4, text: '10.1.2.3' });
  assert.deepEqual(canonicalIP('::ffff:10.1.2.3'), { family: 4, text: '10.1.2.3' });
  assert.deepEqual(canonicalIP('2001:DB8:0:0:0:0:0:1'), { family: 6, text: '2001:db8::1' });
  assert.deepEqual(canonicalIP('2001:db8:0:1:0:0:0:1'), { family: 6, text: '2001:db8:0:1::1' });
  assert.deepEqual(canonicalIP('2001:0:0:1:0:0:1:1'), { family: 6, text: '2001::1:0:0:1:1' }, 'the first of two equal runs');
  assert.deepEqual(canonicalIP('2001:db8:1:1:1:1:0:1'), { family: 6, text: '2001:db8:1:1:1:1:0:1' }, 'one zero group stays');
  assert.deepEqual(canonicalIP('::'), { family: 6, text: '::' });
  assert.equal(canonicalIP('web'), undefined);
});
