import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { apiDomain } from '../../api/domain.js';
import { loadPolicyFile, parsePolicy, PolicyRuleEvaluator, type AuditAttributes } from './policy.js';
import { auditAPIVersion } from './types.js';

const domain = apiDomain('orch.io');

function evaluator(yaml: string): PolicyRuleEvaluator {
  return new PolicyRuleEvaluator(parsePolicy(`apiVersion: audit.orch.io/v1\nkind: Policy\n${yaml}`, domain).policy);
}

const jane = { name: 'jane', groups: ['devs', 'system:authenticated'] };

/** A resource request by jane unless told otherwise. */
function res(over: Partial<AuditAttributes> = {}): AuditAttributes {
  return { user: jane, verb: 'get', namespace: 'default', apiGroup: '', resource: 'pods', subresource: '', name: 'p1', isResourceRequest: true, path: '/api/v1/namespaces/default/pods/p1', ...over };
}

function nonRes(path: string, over: Partial<AuditAttributes> = {}): AuditAttributes {
  return { user: jane, verb: 'get', namespace: '', apiGroup: '', resource: '', subresource: '', name: '', isResourceRequest: false, path, ...over };
}

const level = (e: PolicyRuleEvaluator, a: AuditAttributes) => e.evaluate(a).level;

test('the first matching rule wins; no match is None', () => {
  const e = evaluator(`rules:
- level: Request
  users: [jane]
- level: Metadata
`);
  assert.equal(level(e, res()), 'Request');
  assert.equal(level(e, res({ user: { name: 'bob', groups: [] } })), 'Metadata');
  const none = evaluator('rules:\n- level: Metadata\n  users: [nobody]\n');
  assert.equal(level(none, res()), 'None');
});

test('users and userGroups; a request without a user matches neither', () => {
  const e = evaluator(`rules:
- level: RequestResponse
  users: [alice, jane]
- level: Request
  userGroups: [ops, devs]
- level: Metadata
  userGroups: [system:unauthenticated]
`);
  assert.equal(level(e, res()), 'RequestResponse');
  assert.equal(level(e, res({ user: { name: 'kim', groups: ['devs'] } })), 'Request');
  assert.equal(level(e, res({ user: { name: 'kim', groups: ['qa'] } })), 'None');
  assert.equal(level(e, res({ user: undefined })), 'None');
});

test('verbs', () => {
  const e = evaluator('rules:\n- level: Request\n  verbs: [create, update]\n- level: Metadata\n  verbs: [watch]\n');
  assert.equal(level(e, res({ verb: 'create' })), 'Request');
  assert.equal(level(e, res({ verb: 'watch' })), 'Metadata');
  assert.equal(level(e, res({ verb: 'get' })), 'None');
});

test('resources: group, `*`, resource/subresource, */subresource, resource/* (which covers the resource itself) and resourceNames', () => {
  const e = evaluator(`rules:
- level: RequestResponse
  resources:
  - group: ""
    resources: [configmaps]
    resourceNames: [special]
- level: Request
  resources:
  - group: apps
    resources: ["*"]
- level: Metadata
  resources:
  - group: ""
    resources: [pods/log, "*/status", "services/*"]
- level: None
  resources:
  - group: ""
    resources: [configmaps]
- level: Request
  resources:
  - group: batch
`);
  assert.equal(level(e, res({ resource: 'configmaps', name: 'special' })), 'RequestResponse');
  assert.equal(level(e, res({ resource: 'configmaps', name: 'other' })), 'None');
  assert.equal(level(e, res({ apiGroup: 'apps', resource: 'deployments' })), 'Request');
  assert.equal(level(e, res({ apiGroup: 'apps', resource: 'deployments', subresource: 'scale' })), 'Request', '`*` matches sub-resources too');
  assert.equal(level(e, res({ resource: 'pods', subresource: 'log' })), 'Metadata');
  assert.equal(level(e, res({ resource: 'pods' })), 'None', 'pods/log does not match pods');
  assert.equal(level(e, res({ resource: 'pods', subresource: 'status' })), 'Metadata');
  assert.equal(level(e, res({ resource: 'nodes', subresource: 'status' })), 'Metadata');
  assert.equal(level(e, res({ resource: 'services' })), 'Metadata', 'services/* matches services');
  assert.equal(level(e, res({ resource: 'services', subresource: 'proxy' })), 'Metadata');
  assert.equal(level(e, res({ apiGroup: 'batch', resource: 'jobs' })), 'Request', 'a group without resources matches all of them');
  assert.equal(level(e, res({ apiGroup: 'extensions', resource: 'pods' })), 'None', 'the group must be the same');
  assert.equal(level(e, nonRes('/api/v1/pods')), 'None', 'resource rules never match non-resource requests');
});

test('namespaces: "" is the cluster scope', () => {
  const e = evaluator(`rules:
- level: Request
  namespaces: [kube-system]
- level: Metadata
  namespaces: [""]
  resources:
  - group: ""
`);
  assert.equal(level(e, res({ namespace: 'kube-system' })), 'Request');
  assert.equal(level(e, res({ namespace: 'default' })), 'None');
  assert.equal(level(e, res({ namespace: '', resource: 'nodes', name: 'n1' })), 'Metadata');
  assert.equal(level(e, nonRes('/healthz')), 'None');
});

test('nonResourceURLs: exact, `*`, trailing `*`; never a resource request', () => {
  const e = evaluator(`rules:
- level: Metadata
  nonResourceURLs: [/healthz, "/metrics*"]
- level: Request
  nonResourceURLs: ["/apis/*"]
- level: None
  users: [nobody]
- level: RequestResponse
  nonResourceURLs: ["*"]
`);
  assert.equal(level(e, nonRes('/healthz')), 'Metadata');
  assert.equal(level(e, nonRes('/healthz/etcd')), 'RequestResponse', 'an exact URL does not cover sub-paths');
  assert.equal(level(e, nonRes('/metrics')), 'Metadata');
  assert.equal(level(e, nonRes('/metricsfoo')), 'Metadata');
  assert.equal(level(e, nonRes('/apis/apps')), 'Request');
  assert.equal(level(e, nonRes('/version')), 'RequestResponse');
  assert.equal(level(e, res()), 'None');
});

test('omitStages: the policy\'s are added to every rule and apply to the default too', () => {
  const e = evaluator(`omitStages: [RequestReceived]
rules:
- level: Metadata
  users: [jane]
  omitStages: [ResponseStarted]
- level: Request
  users: [bob]
`);
  assert.deepEqual(new Set(e.evaluate(res()).omitStages), new Set(['RequestReceived', 'ResponseStarted']));
  assert.deepEqual(e.evaluate(res({ user: { name: 'bob', groups: [] } })).omitStages, ['RequestReceived']);
  assert.deepEqual(e.evaluate(res({ user: { name: 'kim', groups: [] } })), { level: 'None', omitStages: ['RequestReceived'], omitManagedFields: false });
});

test('omitManagedFields: a rule\'s own setting beats the policy\'s', () => {
  const e = evaluator(`omitManagedFields: true
rules:
- level: Metadata
  users: [jane]
  omitManagedFields: false
- level: Metadata
`);
  assert.equal(e.evaluate(res()).omitManagedFields, false);
  assert.equal(e.evaluate(res({ user: { name: 'bob', groups: [] } })).omitManagedFields, true);
});

test('upstream\'s audit.k8s.io/v1 is read as ours; other versions and kinds are refused', () => {
  assert.equal(parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n', domain).policy.rules.length, 1);
  assert.throws(() => parsePolicy('apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules:\n- level: Metadata\n', domain), /no kind "Policy" is registered for version "audit.k8s.io\/v1beta1"/);
  assert.throws(() => parsePolicy('apiVersion: audit.orch.io/v1\nkind: Event\nrules: []\n', domain), /no kind "Event"/);
  assert.throws(() => parsePolicy('rules:\n- level: Metadata\n', domain), /Object 'Kind' is missing/);
  const k8s = apiDomain('k8s.io');
  assert.equal(auditAPIVersion(domain), 'audit.orch.io/v1');
  assert.equal(auditAPIVersion(k8s), 'audit.k8s.io/v1', 'with --api-domain=k8s.io the events are upstream\'s');
  assert.equal(parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n', k8s).policy.rules[0]!.level, 'None');
});

test('validation, with upstream\'s paths and messages', () => {
  const bad = (yaml: string) => {
    try {
      parsePolicy(`apiVersion: audit.orch.io/v1\nkind: Policy\n${yaml}`, domain);
    } catch (e) {
      return (e as Error).message;
    }
    return assert.fail('accepted');
  };
  assert.equal(bad('rules: []\n'), 'loaded illegal policy with 0 rules');
  assert.equal(bad('rules:\n- users: [a]\n'), 'rules[0].level: Required value');
  assert.equal(bad('rules:\n- level: Everything\n'), 'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"');
  assert.equal(bad('omitStages: [Sometimes]\nrules:\n- level: None\n'), 'omitStages[0]: Invalid value: "Sometimes": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic');
  assert.equal(bad('rules:\n- level: None\n  nonResourceURLs: [healthz]\n'), `rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character`);
  assert.equal(bad('rules:\n- level: None\n  nonResourceURLs: ["/a*b"]\n'), `rules[0].nonResourceURLs[0]: Invalid value: "/a*b": non-resource URL wildcards '*' must be the final character of the rule`);
  assert.equal(bad('rules:\n- level: None\n  nonResourceURLs: [/a]\n  namespaces: [x]\n'), 'rules[0].nonResourceURLs: Invalid value: []string{"/a"}: rules cannot apply to both regular resources and non-resource URLs');
  assert.equal(bad('rules:\n- level: None\n  resources:\n  - resourceNames: [x]\n'), 'rules[0].resources.resourceNames: Invalid value: []string{"x"}: using resourceNames requires at least one resource');
  assert.match(bad('rules:\n- level: None\n  resources:\n  - group: apps/v1\n'), /^rules\[0\]\.resources\.group: Invalid value: "apps\/v1": a lowercase RFC 1123 subdomain/);
  assert.match(bad('rules:\n- level: Foo\n- level: Bar\n'), /^\[rules\[0\]\.level: Unsupported value: "Foo".*, rules\[1\]\.level: Unsupported value: "Bar"/);
  assert.match(bad('rules:\n- level: None\n  users: alice\n'), /failed decoding: json: cannot unmarshal string into Go struct field Policy\.rules\.users of type \[\]string/);
});

test('unknown fields are ignored with a warning, as upstream\'s lenient decoding', () => {
  const p = parsePolicy('apiVersion: audit.orch.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  user: [typo]\n', domain);
  assert.deepEqual(p.warnings, ['unknown field "rules[0].user"']);
  assert.deepEqual(p.policy.rules[0]!.users, []);
});

test('a policy file that cannot be read or is refused names the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-policy-'));
  try {
    const file = join(dir, 'policy.yaml');
    assert.throws(() => loadPolicyFile(file, domain), (e: Error) => e.message.startsWith(`loading audit policy file: failed to read file path ${JSON.stringify(file)}:`));
    writeFileSync(file, 'apiVersion: audit.orch.io/v1\nkind: Policy\nrules: []\n');
    assert.throws(() => loadPolicyFile(file, domain), { message: `loading audit policy file: loaded illegal policy with 0 rules: from file ${file}` });
    writeFileSync(file, '{"apiVersion":"audit.orch.io/v1","kind":"Policy","rules":[{"level":"RequestResponse"}]}');
    assert.equal(loadPolicyFile(file, domain).policy.rules[0]!.level, 'RequestResponse', 'JSON is YAML too');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
