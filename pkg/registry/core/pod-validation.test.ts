import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import { defaultPod } from '../../../api/core/v1/pod.js';
import { summarizePod } from '../../../api/core/v1/pod-printer.js';
import { podQOSClass } from './pod-qos.js';
import { podValidation } from './pod-validation.js';
import { podSpecPolicy } from '../testing/pod-spec-policy.js';

const v = podValidation(podSpecPolicy());
const fields = (errs: { field: string }[]) => errs.map((e) => e.field).sort();

function pod(spec: Record<string, unknown> = {}): Pod {
  const p = { metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [{ name: 'app', image: 'nginx' }], terminationGracePeriodSeconds: 30, ...spec } } as Pod;
  defaultPod(p);
  for (const c of p.spec!.containers) c.terminationMessagePolicy ??= 'File';
  return p;
}

test('a valid pod passes; ephemeral containers are refused on create', () => {
  assert.deepEqual(v.validate(pod()), []);
  const e = v.validate(pod({ ephemeralContainers: [{ name: 'd', image: 'busybox', terminationMessagePolicy: 'File' }] }));
  assert.deepEqual(fields(e), ['spec.ephemeralContainers']);
});

test('update: images, activeDeadlineSeconds and new tolerations may change; anything else is forbidden at spec', () => {
  const old = pod();
  const ok = structuredClone(old);
  ok.spec!.containers[0]!.image = 'nginx:2';
  ok.spec!.activeDeadlineSeconds = 10;
  ok.spec!.tolerations = [{ key: 'a', operator: 'Exists' }];
  assert.deepEqual(v.validateUpdate(ok, old), []);
  const bad = structuredClone(old);
  bad.spec!.hostname = 'h';
  const errs = v.validateUpdate(bad, old);
  assert.deepEqual(fields(errs), ['spec']);
  assert.match(errs[0]!.detail, /^pod updates may not change fields other than/);
  const fewer = structuredClone(old);
  fewer.spec!.containers = [];
  assert.ok(v.validateUpdate(fewer, old).some((e) => e.field === 'spec.containers' && e.detail === 'pod updates may not add or remove containers'));
});

test('ephemeralcontainers update: existing ones may be neither removed nor changed', () => {
  const old = pod();
  old.spec!.ephemeralContainers = [{ name: 'd', image: 'busybox', terminationMessagePolicy: 'File' }];
  const removed = structuredClone(old);
  removed.spec!.ephemeralContainers = [];
  const update = v.validateSubresourceUpdate!.ephemeralcontainers!;
  const detail = (errs: { field: string; detail: string }[]) => errs.filter((e) => e.field === 'spec.ephemeralContainers').map((e) => e.detail);
  assert.deepEqual(detail(update(removed, old)), ['existing ephemeral containers "d" may not be removed\n']);
  const changed = structuredClone(old);
  changed.spec!.ephemeralContainers![0]!.image = 'alpine';
  assert.deepEqual(detail(update(changed, old)), ['existing ephemeral containers "d" may not be changed\n']);
});

test('privileged containers of every kind are disallowed by cluster policy unless --allow-privileged, on create and update', () => {
  const privileged = { privileged: true };
  const p = pod({
    initContainers: [{ name: 'init', image: 'busybox', terminationMessagePolicy: 'File', securityContext: privileged }],
    containers: [{ name: 'app', image: 'nginx', terminationMessagePolicy: 'File', securityContext: privileged }, { name: 'side', image: 'nginx', terminationMessagePolicy: 'File', securityContext: { privileged: false } }],
  });
  const refused = (errs: { type: string; field: string; detail: string }[]) => errs.filter((e) => e.detail === 'disallowed by cluster policy').map((e) => `${e.type} ${e.field}`);
  assert.deepEqual(refused(v.validate(p)), [
    'FieldValueForbidden spec.containers[0].securityContext.privileged',
    'FieldValueForbidden spec.initContainers[0].securityContext.privileged',
  ]);
  assert.deepEqual(refused(v.validateUpdate(p, p)), [
    'FieldValueForbidden spec.containers[0].securityContext.privileged',
    'FieldValueForbidden spec.initContainers[0].securityContext.privileged',
  ]);
  const withDebug = structuredClone(p);
  withDebug.spec!.initContainers = [];
  withDebug.spec!.containers = [withDebug.spec!.containers[1]!];
  const debugging = structuredClone(withDebug);
  debugging.spec!.ephemeralContainers = [{ name: 'debug', image: 'busybox', imagePullPolicy: 'Always', terminationMessagePolicy: 'File', securityContext: privileged }];
  assert.deepEqual(refused(v.validateSubresourceUpdate!.ephemeralcontainers!(debugging, withDebug)), ['FieldValueForbidden spec.ephemeralContainers[0].securityContext.privileged']);
  const allowing = podValidation(podSpecPolicy({ allowPrivileged: true }));
  assert.deepEqual(allowing.validate(p), []);
  assert.deepEqual(allowing.validateSubresourceUpdate!.ephemeralcontainers!(debugging, withDebug), []);
});

test('QoS class: BestEffort, Burstable, Guaranteed', () => {
  assert.equal(podQOSClass(pod()), 'BestEffort');
  assert.equal(podQOSClass(pod({ containers: [{ name: 'a', image: 'x', resources: { requests: { memory: '1Gi' } } }] })), 'Burstable');
  assert.equal(podQOSClass(pod({ containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: '1', memory: '1Gi' } } }] })), 'Guaranteed');
  assert.equal(podQOSClass(pod({ containers: [{ name: 'a', image: 'x', resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } } }] })), 'Burstable');
});

test('printer STATUS: init progress, terminated reasons, Terminating', () => {
  const now = new Date('2026-01-01T01:00:00Z');
  const p = pod({ initContainers: [{ name: 'i', image: 'x' }] });
  p.status = { phase: 'Pending', initContainerStatuses: [{ name: 'i', ready: false, restartCount: 0, image: 'x', imageID: '', state: { running: {} } }] };
  assert.equal(summarizePod(p, now).status, 'Init:0/1');
  p.status.initContainerStatuses![0]!.state = { terminated: { exitCode: 2 } };
  assert.equal(summarizePod(p, now).status, 'Init:ExitCode:2');
  p.status = { phase: 'Running', containerStatuses: [{ name: 'app', ready: false, restartCount: 1, image: 'x', imageID: '', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] };
  assert.deepEqual(summarizePod(p, now), { ready: '0/1', status: 'Completed', restarts: '1' });
  p.metadata!.deletionTimestamp = '2026-01-01T00:59:00Z';
  assert.equal(summarizePod(p, now).status, 'Terminating');
});
