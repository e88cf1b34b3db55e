import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredObject } from '../../storage/interface.js';
import { daemonSetStrategy, templateGenerationAnnotation } from './daemon-set-strategy.js';

const ds = (image: string, generation?: string, labels: Record<string, string> = {}) => ({
  metadata: { name: 'd', ...(generation ? { annotations: { [templateGenerationAnnotation]: generation } } : {}) },
  spec: { selector: {}, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image }] } } },
}) as unknown as StoredObject;
const gen = (o: StoredObject) => o.metadata.annotations?.[templateGenerationAnnotation];

test('the template generation starts at 1, moves with each template change, and cannot be set by a client', () => {
  const created = ds('i:1');
  daemonSetStrategy.prepareForCreate!(created, {});
  assert.equal(gen(created), '1');
  const same = ds('i:1', '7');
  daemonSetStrategy.prepareForUpdate!(same, created);
  assert.equal(gen(same), '1', 'a client\'s value is ignored');
  const changed = ds('i:2');
  daemonSetStrategy.prepareForUpdate!(changed, created);
  assert.equal(gen(changed), '2');
  const relabelled = ds('i:2', undefined, { a: 'b' });
  daemonSetStrategy.prepareForUpdate!(relabelled, changed);
  assert.equal(gen(relabelled), '3', 'template labels are the template too');
});
