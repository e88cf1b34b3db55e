import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PodSpec } from '../../../api/core/v1/pod-template.js';
import { apiDomain } from '../../../api/domain.js';
import { aggregateCheckResults, forbiddenDetail, forbiddenReason } from './aggregate.js';
import { allowed, forbidden, type Check } from './check.js';
import { defaultChecks } from './checks/index.js';
import { Evaluator } from './evaluator.js';
import type { Level } from './level-version.js';

const evaluator = new Evaluator(defaultChecks(apiDomain('k8s.io')));
const spec = (s: Record<string, unknown>) => s as unknown as PodSpec;
const verdict = (level: Level, version: string, s: Record<string, unknown>, annotations: Record<string, string> = {}) => {
  const r = aggregateCheckResults(evaluator.evaluatePod({ level, version }, { annotations }, spec(s)));
  return { allowed: r.allowed, reason: forbiddenReason(r), detail: forbiddenDetail(r) };
};
const bare = { containers: [{ name: 'app', image: 'img' }] };

test('restricted:latest on a pod that sets nothing: the four restricted checks, in upstream\'s order', () => {
  assert.deepEqual(verdict('restricted', 'latest', bare), {
    allowed: false,
    reason: 'allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    detail: 'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), ' +
      'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), ' +
      'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), ' +
      'seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  });
  assert.deepEqual(verdict('baseline', 'latest', bare), { allowed: true, reason: '', detail: '' });
  assert.deepEqual(evaluator.evaluatePod({ level: 'privileged', version: 'latest' }, {}, spec({ hostPID: true, ...bare })), []);
});

test('baseline checks come first, sorted by ID, and restricted runs the baseline checks it does not override', () => {
  const pod = { hostNetwork: true, volumes: [{ name: 'h', hostPath: { path: '/' } }], containers: [{ name: 'app', image: 'img', securityContext: { privileged: true, capabilities: { add: ['SYS_ADMIN'] } } }] };
  assert.equal(verdict('baseline', 'latest', pod).reason, 'non-default capabilities, host namespaces, hostPath volumes, privileged');
  assert.equal(verdict('restricted', 'latest', pod).reason,
    'host namespaces, privileged, allowPrivilegeEscalation != false, unrestricted capabilities, restricted volume types, runAsNonRoot != true, seccompProfile');
  // Before v1.22 restricted had no capabilities check of its own: the baseline one runs.
  assert.equal(verdict('restricted', 'v1.21', pod).reason,
    'non-default capabilities, host namespaces, privileged, allowPrivilegeEscalation != false, restricted volume types, runAsNonRoot != true, seccompProfile');
  // Before v1.19 the seccomp check was baseline's, on the annotations.
  assert.equal(verdict('restricted', 'v1.18', bare, { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' }).reason,
    'seccompProfile, allowPrivilegeEscalation != false, runAsNonRoot != true');
  assert.equal(verdict('restricted', 'v1.0', bare).reason, 'runAsNonRoot != true');
});

test('a version newer than any check, and latest, evaluate as the newest; a pinned older version as it was', () => {
  const pod = { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_keepalive_time', value: '1' }] }, ...bare };
  assert.equal(verdict('baseline', 'latest', pod).allowed, true);
  assert.equal(verdict('baseline', 'v1.99', pod).allowed, true);
  assert.equal(verdict('baseline', 'v1.9223372036854775807', pod).allowed, true);
  assert.deepEqual(verdict('baseline', 'v1.28', pod), { allowed: false, reason: 'forbidden sysctls', detail: 'forbidden sysctls (net.ipv4.tcp_keepalive_time)' });
});

test('a check that refuses without a reason is named as unknown', () => {
  const r = aggregateCheckResults([allowed, { allowed: false }, forbidden('x', '')]);
  assert.deepEqual([forbiddenReason(r), forbiddenDetail(r)], ['unknown forbidden reason, x', 'unknown forbidden reason, x']);
});

test('an invalid set of checks is refused', () => {
  const c = (id: string, level: Check['level'], versions: Check['versions']): Check => ({ id, level, versions });
  const fn = () => allowed;
  assert.throws(() => new Evaluator([c('a', 'baseline', [{ minimumVersion: 0, checkPod: fn }]), c('a', 'baseline', [{ minimumVersion: 0, checkPod: fn }])]), /multiple checks registered for ID a/);
  assert.throws(() => new Evaluator([c('a', 'baseline', [])]), /check a: empty/);
  assert.throws(() => new Evaluator([c('a', 'baseline', [{ minimumVersion: 3, checkPod: fn }, { minimumVersion: 3, checkPod: fn }])]), /strictly increasing/);
  assert.throws(() => new Evaluator([c('a', 'baseline', [{ minimumVersion: 0, checkPod: fn, overrides: ['b'] }])]), /only restricted checks may set overrides/);
  assert.throws(() => new Evaluator([c('r', 'restricted', [{ minimumVersion: 0, checkPod: fn }]), c('s', 'restricted', [{ minimumVersion: 0, checkPod: fn, overrides: ['r'] }])]), /overrides restricted check r/);
});
