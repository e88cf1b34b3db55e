import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LeaseManager } from './lease-manager.js';

test('writes within the reuse window share one lease; a lease is granted with the extra lifetime', async () => {
  let clock = 0;
  const grants: number[] = [];
  const m = new LeaseManager(async (ttl) => { grants.push(ttl); return String(grants.length); }, { now: () => clock });
  assert.equal(await m.leaseFor(3600), '1');
  clock += 30_000;
  assert.equal(await m.leaseFor(3600), '1', 'reused: it still outlives the TTL');
  clock += 31_000; // 61 s after the grant, the lease (3660 s) no longer outlives now + 3600 s
  assert.equal(await m.leaseFor(3600), '2');
  assert.deepEqual(grants, [3660, 3660]);
});

test('short TTLs get no reuse window, so every write has its own lease', async () => {
  let n = 0;
  const m = new LeaseManager(async (ttl) => { assert.equal(ttl, 2); return String(++n); }, { now: () => 0 });
  assert.equal(await m.leaseFor(2), '1');
  assert.equal(await m.leaseFor(2), '2');
});

test('a lease carries at most maxObjectsPerLease keys', async () => {
  let n = 0;
  let clock = 0;
  const m = new LeaseManager(async () => String(++n), { now: () => (clock += 10), maxObjectsPerLease: 2 });
  assert.deepEqual([await m.leaseFor(1000), await m.leaseFor(1000), await m.leaseFor(1000)], ['1', '1', '2']);
});
