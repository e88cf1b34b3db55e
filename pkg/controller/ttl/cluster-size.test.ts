import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClusterSize } from './cluster-size.js';

test('the TTL steps up past each size maximum and down below each minimum, with overlap', () => {
  const s = new ClusterSize();
  const grow = (n: number) => { for (let i = 0; i < n; i++) s.added(); };
  const shrink = (n: number) => { for (let i = 0; i < n; i++) s.removed(); };
  grow(100);
  assert.equal(s.ttlSeconds, 0);
  grow(1);
  assert.equal(s.ttlSeconds, 15);
  shrink(10);
  assert.equal(s.ttlSeconds, 15, '91 nodes: still within the second step');
  shrink(2);
  assert.equal(s.ttlSeconds, 0);
  grow(1912);
  assert.equal(s.ttlSeconds, 300);
});
