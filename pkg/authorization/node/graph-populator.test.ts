import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultApiDomain } from '../../../api/domain.js';
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { Graph } from './graph.js';
import { GraphPopulator } from './graph-populator.js';

const pod = (nodeName: string | undefined, secret: string, uid = 'u1') => ({
  metadata: { name: 'web', namespace: 'ns', uid },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'i', envFrom: [{ secretRef: { name: secret } }] }] },
}) as unknown as Pod;

test('pods enter the graph when bound and leave it when deleted', () => {
  const g = new Graph();
  const p = new GraphPopulator(g, defaultApiDomain);
  const reaches = (node: string, secret: string) => g.hasPathFrom(node, 'secret', 'ns', secret).found;
  p.pod('ADDED', pod(undefined, 's'), undefined);
  assert.equal(g.count('pod'), 0, 'a pod bound to no node leads nowhere');
  p.pod('MODIFIED', pod('n1', 's'), pod(undefined, 's'));
  assert.equal(reaches('n1', 's'), true, 'bound by the scheduler');
  // Status writes change nothing a bound pod refers to; the graph is not rebuilt for them.
  p.pod('MODIFIED', pod('n1', 'edited'), pod('n1', 's'));
  assert.equal(reaches('n1', 's'), true);
  assert.equal(reaches('n1', 'edited'), false);
  // Another pod of the same name (a new uid) is recorded afresh.
  p.pod('MODIFIED', pod('n1', 't', 'u2'), pod('n1', 's'));
  assert.equal(reaches('n1', 's'), false);
  assert.equal(reaches('n1', 't'), true);
  p.pod('DELETED', pod('n1', 't', 'u2'), undefined);
  assert.equal(reaches('n1', 't'), false);
  assert.equal(g.count('pod'), 0);
});

test('PVs are recorded on every change and forgotten when deleted', () => {
  const g = new Graph();
  const p = new GraphPopulator(g, defaultApiDomain);
  const pv = (claim?: string) => ({ metadata: { name: 'pv1' }, spec: claim ? { claimRef: { namespace: 'ns', name: claim } } : {} }) as unknown as PersistentVolume;
  p.pod('ADDED', { metadata: { name: 'db', namespace: 'ns', uid: 'u' }, spec: { nodeName: 'n1', volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] } } as unknown as Pod, undefined);
  p.persistentVolume('ADDED', pv());
  assert.equal(g.hasPathFrom('n1', 'pv', '', 'pv1').found, false, 'not bound yet');
  p.persistentVolume('MODIFIED', pv('data'));
  assert.equal(g.hasPathFrom('n1', 'pv', '', 'pv1').found, true);
  p.persistentVolume('DELETED', pv('data'));
  assert.equal(g.count('pv'), 0);
});
