import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiDomain, defaultApiDomain } from '../../../api/domain.js';
import { errorMessage } from '../../runtime/field-errors.js';
import { compareLevels, parseLevel, parseVersion } from './level-version.js';
import { policyKeys, policyToEvaluate, type Policy } from './policy.js';

const keys = policyKeys(apiDomain('k8s.io'));
const privileged: Policy = { enforce: { level: 'privileged', version: 'latest' }, audit: { level: 'privileged', version: 'latest' }, warn: { level: 'privileged', version: 'latest' } };
const lv = (s: string) => ({ level: s.split(':')[0], version: s.split(':')[1] });
const resolve = (labels: Record<string, string> | undefined, defaults = privileged) => {
  const { policy, errors } = policyToEvaluate(labels, defaults, keys);
  return { enforce: `${policy.enforce.level}:${policy.enforce.version}`, audit: `${policy.audit.level}:${policy.audit.version}`, warn: `${policy.warn.level}:${policy.warn.version}`, errors: errors.map(errorMessage) };
};
const psa = (mode: string) => `pod-security.kubernetes.io/${mode}`;

test('levels and versions parse as upstream\'s, falling back to restricted and latest', () => {
  assert.deepEqual(parseLevel('baseline'), { level: 'baseline' });
  assert.deepEqual(parseLevel('Baseline'), { level: 'restricted', error: 'must be one of privileged, baseline, restricted' });
  for (const v of ['latest', 'v1.0', 'v1.7', 'v1.25', 'v1.9223372036854775807']) assert.deepEqual(parseVersion(v), { version: v });
  for (const v of ['', 'v1.01', 'v2.0', 'v1', '1.25', 'v1.25.0', 'v1.9223372036854775808', 'Latest']) {
    assert.deepEqual(parseVersion(v), { version: 'latest', error: 'must be "latest" or "v1.x"' }, v);
  }
  assert.equal(compareLevels('restricted', 'baseline'), 1);
  assert.equal(compareLevels('privileged', 'baseline'), -1);
  assert.equal(compareLevels('baseline', 'baseline'), 0);
});

test('labels choose each mode over the defaults; warn follows a stricter enforce label unless set itself', () => {
  const baselineDefaults: Policy = { enforce: lv('baseline:v1.20'), audit: lv('baseline:latest'), warn: lv('baseline:latest') } as Policy;
  assert.deepEqual(resolve(undefined, baselineDefaults), { enforce: 'baseline:v1.20', audit: 'baseline:latest', warn: 'baseline:latest', errors: [] });
  assert.deepEqual(resolve({ [psa('enforce')]: 'restricted' }), { enforce: 'restricted:latest', audit: 'privileged:latest', warn: 'restricted:latest', errors: [] });
  assert.deepEqual(resolve({ [psa('enforce')]: 'baseline', [psa('enforce-version')]: 'v1.24' }), { enforce: 'baseline:v1.24', audit: 'privileged:latest', warn: 'baseline:v1.24', errors: [] });
  assert.deepEqual(resolve({ [psa('enforce')]: 'restricted', [psa('warn-version')]: 'v1.22' }), { enforce: 'restricted:latest', audit: 'privileged:latest', warn: 'restricted:v1.22', errors: [] });
  assert.deepEqual(resolve({ [psa('enforce')]: 'restricted', [psa('warn')]: 'baseline' }), { enforce: 'restricted:latest', audit: 'privileged:latest', warn: 'baseline:latest', errors: [] });
  // A version label alone does not make warn follow enforce.
  assert.deepEqual(resolve({ [psa('enforce-version')]: 'v1.23' }, baselineDefaults).warn, 'baseline:latest');
  assert.deepEqual(resolve({ [psa('audit')]: 'baseline', [psa('audit-version')]: 'v1.25', unrelated: 'x' }), { enforce: 'privileged:latest', audit: 'baseline:v1.25', warn: 'privileged:latest', errors: [] });
});

test('a bad enforce label enforces restricted; bad audit and warn levels fail open; bad versions are latest', () => {
  assert.deepEqual(resolve({ [psa('enforce')]: 'strict', [psa('audit')]: 'loud', [psa('warn')]: '', [psa('enforce-version')]: 'v1.x', [psa('warn-version')]: 'v1.02' }), {
    enforce: 'restricted:latest', audit: 'privileged:latest', warn: 'privileged:latest',
    errors: [
      'metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "v1.x": must be "latest" or "v1.x"',
      'metadata.labels[pod-security.kubernetes.io/audit]: Invalid value: "loud": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "v1.02": must be "latest" or "v1.x"',
    ],
  });
  // The bad enforce level does not pull warn along.
  assert.equal(resolve({ [psa('enforce')]: 'x' }).warn, 'privileged:latest');
});

test('the label keys follow the platform domain', () => {
  const ours = policyKeys(defaultApiDomain);
  assert.equal(ours.level.enforce, 'pod-security.orch.io/enforce');
  assert.equal(ours.version.warn, 'pod-security.orch.io/warn-version');
  assert.equal(ours.prefix, 'pod-security.orch.io/');
  assert.equal(policyToEvaluate({ [psa('enforce')]: 'restricted' }, privileged, ours).policy.enforce.level, 'privileged', 'upstream\'s key means nothing under orch.io');
});
