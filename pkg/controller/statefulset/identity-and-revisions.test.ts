import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultApiDomain } from '../../../api/domain.js';
import { claimsFor, newPod, ordinalOf } from './pod-identity.js';
import { canonicalJSON, hashRevision, newRevision, revisionData, sameData, templateOf, type Sts } from './revisions.js';

const set = (image: string): Sts => ({
  apiVersion: 'apps/v1', kind: 'StatefulSet',
  metadata: { name: 'web', namespace: 'ns', uid: 'u1' },
  spec: {
    serviceName: 'svc', selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }], volumes: [{ name: 'data', emptyDir: {} }] } },
    volumeClaimTemplates: [{ metadata: { name: 'data', labels: { tier: 'db' } }, spec: { accessModes: ['ReadWriteOnce'] } }],
  },
} as Sts);

test('ordinals are parsed only from <set>-<n> without leading zeros', () => {
  assert.equal(ordinalOf('web', 'web-0'), 0);
  assert.equal(ordinalOf('web', 'web-12'), 12);
  assert.equal(ordinalOf('web', 'web-01'), -1);
  assert.equal(ordinalOf('web', 'web-x'), -1);
  assert.equal(ordinalOf('web', 'webby-1'), -1);
  assert.equal(ordinalOf('web-a', 'web-1'), -1);
});

test('a pod gets its identity, its revision and its own claim in place of the template volume', () => {
  const s = set('img:1');
  const p = newPod(s, s.spec!.template, 2, 'web-abc', defaultApiDomain);
  assert.equal(p.metadata.name, 'web-2');
  assert.equal(p.spec?.hostname, 'web-2');
  assert.equal(p.spec?.subdomain, 'svc');
  assert.deepEqual(p.metadata.labels, {
    app: 'web', [defaultApiDomain.key('pod-name', 'statefulset')]: 'web-2', [defaultApiDomain.key('pod-index', 'apps')]: '2', 'controller-revision-hash': 'web-abc',
  });
  assert.deepEqual(p.spec?.volumes, [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-2' } }]);
  assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u1', controller: true, blockOwnerDeletion: true }]);
  assert.equal((s.spec!.template.spec!.volumes![0] as { emptyDir?: unknown }).emptyDir !== undefined, true, 'the set\'s template is not modified');
  const [claim] = claimsFor(s, 2);
  assert.equal(claim!.metadata.name, 'data-web-2');
  assert.deepEqual(claim!.metadata.labels, { tier: 'db', app: 'web' });
});

test('revisions: equal templates hash alike whatever the key order, a collision probe renames, the template round-trips', () => {
  const a = set('img:1');
  const b = set('img:1');
  b.spec!.template = { spec: b.spec!.template.spec, metadata: b.spec!.template.metadata };
  assert.equal(canonicalJSON(revisionData(a)), canonicalJSON(revisionData(b)));
  assert.equal(hashRevision(revisionData(a), 0), hashRevision(revisionData(b), 0));
  assert.notEqual(hashRevision(revisionData(a), 0), hashRevision(revisionData(a), 1));
  assert.notEqual(hashRevision(revisionData(a), 0), hashRevision(revisionData(set('img:2')), 0));
  assert.match(hashRevision(revisionData(a), 0), /^[bcdfghjklmnpqrstvwxz2456789]+$/);
  const r = newRevision(a, 3, 0);
  assert.equal(r.metadata.name, `web-${hashRevision(revisionData(a), 0)}`);
  assert.equal(r.revision, 3);
  assert.equal(r.metadata.labels?.['controller-revision-hash'], hashRevision(revisionData(a), 0));
  assert.deepEqual(templateOf(r), a.spec!.template);
  assert.ok(sameData(r, revisionData(b)));
  assert.ok(!sameData(r, revisionData(set('img:2'))));
});
