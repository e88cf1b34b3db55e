import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_WATCH_CACHE_SIZE, parseWatchCacheSizes, watchCacheSizesByPrefix } from './watch-cache-options.js';

test('--watch-cache-sizes entries are resource[.group]#size', () => {
  assert.deepEqual([...parseWatchCacheSizes(['pods#0', 'deployments.apps#500', 'leases.coordination.orch.io#5'])], [
    ['pods', 0], ['deployments.apps', 500], ['leases.coordination.orch.io', 5],
  ]);
  assert.throws(() => parseWatchCacheSizes(['pods']), /invalid value of watch cache size: pods/);
  assert.throws(() => parseWatchCacheSizes(['pods#1#2']), /invalid value of watch cache size/);
  assert.throws(() => parseWatchCacheSizes(['pods#x']), /invalid size of watch cache size: pods#x/);
  assert.throws(() => parseWatchCacheSizes(['pods#-1']), /watch cache size cannot be negative: pods#-1/);
});

test('sizes by storage prefix: the default unless given, the owning resource winning a shared prefix', () => {
  const resources = [
    { resource: 'pods', group: '', storagePrefix: '/core/pods/' },
    { resource: 'events', group: '', storagePrefix: '/core/events/' },
    { resource: 'events', group: 'events.orch.io', storagePrefix: '/core/events/' },
    { resource: 'deployments', group: 'apps', storagePrefix: '/apps/deployments/' },
  ];
  const sizes = watchCacheSizesByPrefix(resources, parseWatchCacheSizes(['pods#0', 'events.events.orch.io#7', 'deployments.apps#300']));
  assert.equal(sizes.get('/core/pods/'), 0);
  assert.equal(sizes.get('/core/events/'), 7, 'the served kind names the shared prefix when its owner does not');
  assert.equal(sizes.get('/apps/deployments/'), 300);
  const owner = watchCacheSizesByPrefix(resources, parseWatchCacheSizes(['events#0', 'events.events.orch.io#7']));
  assert.equal(owner.get('/core/events/'), 0);
  assert.equal(watchCacheSizesByPrefix(resources, new Map()).get('/core/pods/'), DEFAULT_WATCH_CACHE_SIZE);
});
