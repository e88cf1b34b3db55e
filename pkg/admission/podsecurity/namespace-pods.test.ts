import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultApiDomain } from '../../../api/domain.js';
import { defaultChecks } from './checks/index.js';
import { Evaluator } from './evaluator.js';
import { evaluatePodsInNamespace, prioritizePods } from './namespace-pods.js';

const evaluator = new Evaluator(defaultChecks(defaultApiDomain));
const restricted = { level: 'restricted' as const, version: 'latest' };
const pod = (name: string, spec: Record<string, unknown> = {}, controller?: string) => ({
  metadata: { name, ...(controller ? { ownerReferences: [{ uid: controller, controller: true }] } : {}) },
  spec: { containers: [{ name: 'app', image: 'img' }], ...spec },
});
const good = { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'app', image: 'img', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }] };
const noExempt = () => false;
const opts = { maxPodsToCheck: 3000, timeoutMs: 1000, now: Date.now };
const reasons = 'allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile';

test('pods with the same reasons are one line naming the lexically first and counting the others', () => {
  const pods = [pod('web-2'), pod('web-1'), pod('ok', good), pod('host', { ...good, hostNetwork: true }), pod('web-3')];
  assert.deepEqual(evaluatePodsInNamespace(evaluator, 'team', restricted, pods, noExempt, opts), [
    'existing pods in namespace "team" violate the new PodSecurity enforce level "restricted:latest"',
    'host: host namespaces',
    `web-1 (and 2 other pods): ${reasons}`,
  ]);
  assert.deepEqual(evaluatePodsInNamespace(evaluator, 'team', restricted, [pod('a'), pod('b')], noExempt, opts)[1], `a (and 1 other pod): ${reasons}`);
  assert.deepEqual(evaluatePodsInNamespace(evaluator, 'team', restricted, [pod('ok', good)], noExempt, opts), []);
  assert.deepEqual(evaluatePodsInNamespace(evaluator, 'team', restricted, [], noExempt, opts), []);
});

test('at most maxPodsToCheck pods are checked, one per controller first; pods of an exempt runtime class are skipped', () => {
  const pods = [pod('rs-a', {}, 'rs'), pod('rs-b', {}, 'rs'), pod('rs-c', {}, 'rs'), pod('lone', { hostPID: true, ...good }), pod('kata', { runtimeClassName: 'kata', hostIPC: true })];
  const exempt = (rc: string | undefined) => rc === 'kata';
  assert.deepEqual(prioritizePods(pods, exempt).map((p) => (p['metadata'] as { name: string }).name), ['rs-a', 'lone', 'rs-b', 'rs-c']);
  assert.deepEqual(evaluatePodsInNamespace(evaluator, 'team', restricted, pods, exempt, { ...opts, maxPodsToCheck: 2 }), [
    'new PodSecurity enforce level only checked against the first 2 of 4 existing pods',
    'existing pods in namespace "team" violate the new PodSecurity enforce level "restricted:latest"',
    'lone: host namespaces',
    `rs-a: ${reasons}`,
  ]);
});

test('checking stops once the time is up, after the pod in hand', () => {
  let t = 0;
  const clock = () => (t += 600);
  const pods = [pod('p1'), pod('p2'), pod('p3')];
  assert.deepEqual(evaluatePodsInNamespace(evaluator, 'team', restricted, pods, noExempt, { ...opts, now: clock }), [
    'new PodSecurity enforce level only checked against the first 2 of 3 existing pods',
    'existing pods in namespace "team" violate the new PodSecurity enforce level "restricted:latest"',
    `p1 (and 1 other pod): ${reasons}`,
  ]);
});
