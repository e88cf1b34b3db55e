import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resourcesForDiscovery } from './aggregated-discovery.js';

test('sub-resources fold into their parent, with their own kind when it differs; an orphan gets an empty parent', () => {
  const out = resourcesForDiscovery([
    { name: 'deployments', singularName: 'deployment', namespaced: true, kind: 'Deployment', verbs: ['get', 'list'], shortNames: ['deploy'], categories: ['all'] },
    { name: 'deployments/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'update'] },
    { name: 'deployments/status', singularName: '', namespaced: true, kind: 'Deployment', verbs: ['get'] },
    { name: 'ghosts/status', singularName: '', namespaced: false, kind: 'Ghost', verbs: ['get'] },
  ]);
  assert.deepEqual(out, [
    {
      resource: 'deployments', responseKind: { group: '', version: '', kind: 'Deployment' }, scope: 'Namespaced', singularResource: 'deployment',
      verbs: ['get', 'list'], shortNames: ['deploy'], categories: ['all'],
      subresources: [
        { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'update'] },
        { subresource: 'status', responseKind: { group: '', version: '', kind: 'Deployment' }, verbs: ['get'] },
      ],
    },
    {
      resource: 'ghosts', responseKind: { group: '', version: '', kind: '' }, scope: 'Cluster', singularResource: '', verbs: [],
      subresources: [{ subresource: 'status', responseKind: { group: '', version: '', kind: 'Ghost' }, verbs: ['get'] }],
    },
  ]);
});
