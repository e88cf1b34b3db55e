// ValidatingAdmissionPolicy through the real server (real etcd, HTTPS, token users under RBAC, the
// audit log, stock kubectl): a failed validation denies with its message, messageExpression and
// reason; Warn reaches kubectl as a warning; Audit writes the validation_failure annotation;
// parameters come from ConfigMaps by name or selector, with parameterNotFoundAction; match
// conditions, variables, namespace and object selectors narrow what is checked; an evaluation
// error follows failurePolicy; a policy that does not compile is refused at write; type checking
// writes its warnings to the policy's status; and every change takes effect without a restart.
// Custom resources serve as parameters (namespaced and cluster-scoped) and as the matched
// resources, type-checked against their definition's schema.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultAuditOptions } from '../../cmd/apiserver/app/audit-options.js';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import type { Client, Response } from './framework/client.js';
import { establish, widgetDefinition } from './framework/custom-resources.js';
import { Kubectl } from './framework/kubectl.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';

const auditPolicy = `apiVersion: audit.orch.io/v1
kind: Policy
rules:
- level: Metadata
  resources:
  - group: ""
    resources: [configmaps]
- level: None
`;

type Spec = Record<string, unknown>;

describe('ValidatingAdmissionPolicy', () => {
  let t: TestServer;
  let dir: string;
  let admin: Client;
  let jane: Client;
  let kc: Kubeconfig;
  let group: string;

  const policiesPath = () => `/apis/${group}/v1/validatingadmissionpolicies`;
  const bindingsPath = () => `/apis/${group}/v1/validatingadmissionpolicybindings`;
  /** Rules covering configmap creates and updates, for objects labelled `case: <name>`. */
  const constraints = (name: string, over: Spec = {}) => ({
    resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], operations: ['CREATE', 'UPDATE'] }],
    objectSelector: { matchLabels: { case: name } },
    ...over,
  });
  const createPolicy = async (name: string, spec: Spec) => {
    const r = await admin.post(policiesPath(), { metadata: { name }, spec: { matchConstraints: constraints(name), ...spec } });
    assert.equal(r.status, 201, r.text);
    return r.body;
  };
  const createBinding = async (name: string, spec: Spec) => {
    const r = await admin.post(bindingsPath(), { metadata: { name }, spec: { policyName: name, validationActions: ['Deny'], ...spec } });
    assert.equal(r.status, 201, r.text);
  };
  const cm = (name: string, labels: Record<string, string>, data: Record<string, string> = {}) => ({ metadata: { name, labels }, data });
  const post = (c: Client, ns: string, body: unknown, query = '') => c.post(`/api/v1/namespaces/${ns}/configmaps${query}`, body);
  /** Waits until a dry-run create of `body` in `ns` answers as `done` says: the policy is in force. */
  const inForce = (ns: string, body: unknown, done: (r: Response) => boolean, what: string) =>
    pollUntil(() => post(admin, ns, body, '?dryRun=All'), done, what);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-vap-'));
    writeFileSync(join(dir, 'tokens.csv'), 'admin-token,admin,1,"system:masters"\njane-token,jane,2,"devs"\n');
    writeFileSync(join(dir, 'audit.yaml'), auditPolicy);
    t = await startTestServer({
      authentication: { ...defaultAuthenticationOptions(), tokenAuthFile: join(dir, 'tokens.csv') },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
      audit: { ...defaultAuditOptions(), policyFile: join(dir, 'audit.yaml'), logPath: join(dir, 'audit.log') },
    });
    group = `admissionregistration.${t.options.apiDomain}`;
    admin = t.client.withToken('admin-token');
    jane = t.client.withToken('jane-token');
    kc = writeKubeconfig(t, 'jane-token');
    await pollUntil(() => admin.get('/readyz'), (r) => r.status === 200, 'the server to be ready');
    for (const [name, labels] of [['vap', { 'vap-suite': 'yes' }], ['vap-other', {}], ['vap-params', {}]] as const) {
      assert.equal((await admin.post('/api/v1/namespaces', { metadata: { name, labels } })).status, 201);
    }
    // jane may write configmaps in vap, and nothing about policies.
    assert.equal((await admin.post('/apis/rbac.authorization.orch.io/v1/namespaces/vap/roles', {
      metadata: { name: 'cm-writer' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'update', 'get', 'list'] }],
    })).status, 201);
    assert.equal((await admin.post('/apis/rbac.authorization.orch.io/v1/namespaces/vap/rolebindings', {
      metadata: { name: 'jane-cm-writer' }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'cm-writer' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'jane' }],
    })).status, 201);
  });
  after(async () => {
    kc?.remove();
    await t?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a failed validation denies with its message, as 422 Invalid unless the validation names a reason', async () => {
    await createPolicy('deny-message', {
      failurePolicy: 'Fail',
      validations: [
        { expression: '!has(object.data) || size(object.data) <= 2', message: 'at most two keys' },
        { expression: "!has(object.data) || !('secret' in object.data)", reason: 'Forbidden',
          messageExpression: "'configmap ' + object.metadata.name + ' may not hold a secret (by ' + request.userInfo.username + ')'" },
      ],
    });
    await createBinding('deny-message', {});
    const big = cm('big', { case: 'deny-message' }, { a: '1', b: '2', c: '3' });
    const r = await inForce('vap', big, (x) => x.status === 422, 'the policy to be in force');
    assert.equal(r.body.reason, 'Invalid');
    assert.equal(r.body.message, "configmaps \"big\" is forbidden: ValidatingAdmissionPolicy 'deny-message' with binding 'deny-message' denied request: at most two keys");
    assert.deepEqual(r.body.details.causes, [{ message: "ValidatingAdmissionPolicy 'deny-message' with binding 'deny-message' denied request: at most two keys" }]);
    // The unprivileged user is refused the same way, with the messageExpression naming them.
    const secret = await post(jane, 'vap', cm('holder', { case: 'deny-message' }, { secret: 'x' }));
    assert.equal(secret.status, 403, secret.text);
    assert.equal(secret.body.reason, 'Forbidden');
    assert.equal(secret.body.message, "configmaps \"holder\" is forbidden: ValidatingAdmissionPolicy 'deny-message' with binding 'deny-message' denied request: configmap holder may not hold a secret (by jane)");
    assert.equal((await post(jane, 'vap', cm('fine', { case: 'deny-message' }, { a: '1' }))).status, 201);
    assert.equal((await admin.get('/api/v1/namespaces/vap/configmaps/big')).status, 404, 'nothing was stored');
  });

  test('changes to policies and bindings take effect without a restart', async () => {
    await createPolicy('live', { failurePolicy: 'Fail', validations: [{ expression: "object.metadata.name != 'first'", message: 'first is taken' }] });
    await createBinding('live', {});
    const first = cm('first', { case: 'live' });
    const second = cm('second', { case: 'live' });
    await inForce('vap', first, (r) => r.status === 422, 'the policy to refuse first');
    const current = (await admin.get(`${policiesPath()}/live`)).body;
    current.spec.validations = [{ expression: "object.metadata.name != 'second'", message: 'second is taken' }];
    assert.equal((await admin.put(`${policiesPath()}/live`, current)).status, 200);
    const r = await inForce('vap', second, (x) => x.status === 422, 'the updated policy to refuse second');
    assert.match(r.body.message, /second is taken$/);
    assert.equal((await post(admin, 'vap', first, '?dryRun=All')).status, 201);
    assert.equal((await admin.delete(`${bindingsPath()}/live`)).status, 200);
    await inForce('vap', second, (x) => x.status === 201, 'the unbound policy to stop applying');
  });

  test('Warn reaches stock kubectl as a warning, and the object is stored', async () => {
    await createPolicy('warn', { failurePolicy: 'Fail', validations: [{ expression: "object.metadata.name.startsWith('ok-')", message: 'names should start with ok-' }] });
    await createBinding('warn', { validationActions: ['Warn'] });
    await inForce('vap', cm('probe', { case: 'warn' }), (r) => r.status === 201 && String(r.headers.warning ?? '').includes('names should start'), 'the warning');
    const kubectl = new Kubectl(kc);
    const manifest = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', ...cm('badly-named', { case: 'warn' }) });
    const r = await kubectl.ok(['create', '-n', 'vap', '-f', '-'], { input: manifest });
    assert.equal(r.stdout.trim(), 'configmap/badly-named created');
    assert.equal(r.stderr.trim(), "Warning: Validation failed for ValidatingAdmissionPolicy 'warn' with binding 'warn': names should start with ok-");
    assert.equal((await jane.get('/api/v1/namespaces/vap/configmaps/badly-named')).status, 200);
  });

  test('Audit writes the validation failure, and auditAnnotations their values, to the audit event', async () => {
    await createPolicy('audit', {
      failurePolicy: 'Fail',
      validations: [{ expression: "object.metadata.name.startsWith('ok-')", message: 'names should start with ok-' }],
      auditAnnotations: [{ key: 'creator', valueExpression: "'created by ' + request.userInfo.username" }],
    });
    await createBinding('audit', { validationActions: ['Audit'] });
    const domain = t.options.apiDomain;
    const events = () => readFileSync(join(dir, 'audit.log'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const failureKey = `validation.policy.admission.${domain}/validation_failure`;
    const audited = await pollUntil(async () => {
      const r = await post(jane, 'vap', cm(`audited-${Date.now()}`, { case: 'audit' }));
      assert.equal(r.status, 201, r.text);
      return events().find((e) => e.stage === 'ResponseComplete' && e.auditID === r.headers['audit-id'] && e.annotations?.[failureKey]);
    }, (e) => e !== undefined, 'an audited validation failure');
    assert.deepEqual(JSON.parse(audited.annotations[failureKey]), [{
      message: 'names should start with ok-', policy: 'audit', binding: 'audit', expressionIndex: 0, validationActions: ['Audit'],
    }]);
    assert.equal(audited.annotations['audit/creator'], 'created by jane');
  });

  test('parameters from a ConfigMap by paramRef, changed without a restart; missing ones follow parameterNotFoundAction', async () => {
    const limits = await admin.post('/api/v1/namespaces/vap-params/configmaps', cm('limits', {}, { maxKeys: '1' }));
    assert.equal(limits.status, 201);
    await createPolicy('params', {
      failurePolicy: 'Fail',
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      validations: [{ expression: '!has(object.data) || size(object.data) <= int(params.data.maxKeys)', messageExpression: "'at most ' + params.data.maxKeys + ' keys'" }],
    });
    await createBinding('params', { paramRef: { name: 'limits', namespace: 'vap-params', parameterNotFoundAction: 'Deny' } });
    const two = cm('two-keys', { case: 'params' }, { a: '1', b: '2' });
    const r = await inForce('vap', two, (x) => x.status === 422, 'the parameterized policy');
    assert.match(r.body.message, /denied request: at most 1 keys$/);
    // The parameter changes; the next request reads it.
    const current = (await admin.get('/api/v1/namespaces/vap-params/configmaps/limits')).body;
    assert.equal((await admin.put('/api/v1/namespaces/vap-params/configmaps/limits', { ...current, data: { maxKeys: '2' } })).status, 200);
    await inForce('vap', two, (x) => x.status === 201, 'the new parameter to be read');

    // A binding naming parameters that do not exist: Deny refuses, Allow admits unvalidated.
    const missing = (name: string, action: string) => createBinding(name, { policyName: 'params', paramRef: { name: 'absent', namespace: 'vap-params', parameterNotFoundAction: action },
      matchResources: { objectSelector: { matchLabels: { missing: action } } } });
    await missing('params-missing-deny', 'Deny');
    await missing('params-missing-allow', 'Allow');
    const denied = await inForce('vap', cm('m1', { case: 'params', missing: 'Deny' }), (x) => x.status !== 201, 'the binding without parameters');
    assert.equal(denied.status, 422, denied.text);
    assert.equal(denied.body.message, "configmaps \"m1\" is forbidden: ValidatingAdmissionPolicy 'params' with binding 'params-missing-deny' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction");
    assert.equal((await post(admin, 'vap', cm('m2', { case: 'params', missing: 'Allow' }))).status, 201);

    // By selector, in the request's namespace: each matching parameter is checked.
    await createBinding('params-selected', { policyName: 'params', paramRef: { selector: { matchLabels: { limits: 'yes' } }, parameterNotFoundAction: 'Allow' },
      matchResources: { objectSelector: { matchLabels: { selected: 'yes' } } } });
    assert.equal((await admin.post('/api/v1/namespaces/vap/configmaps', cm('limit-3', { limits: 'yes' }, { maxKeys: '3' }))).status, 201);
    assert.equal((await admin.post('/api/v1/namespaces/vap/configmaps', cm('limit-1', { limits: 'yes' }, { maxKeys: '1' }))).status, 201);
    const selected = await inForce('vap', cm('sel', { case: 'params', selected: 'yes' }, { a: '1', b: '2' }), (x) => x.status === 422, 'the selected parameters');
    assert.match(selected.body.message, /with binding 'params-selected' denied request: at most 1 keys$/);
    assert.equal((await post(admin, 'vap-other', cm('sel', { case: 'params', selected: 'yes' }, { a: '1', b: '2' }))).status, 201, 'no parameters in vap-other: allowed');

    // Stock kubectl prints the policy and its bindings with upstream's columns.
    const adminKc = writeKubeconfig(t, 'admin-token');
    try {
      const kubectl = new Kubectl(adminKc);
      const policies = await kubectl.ok(['get', 'validatingadmissionpolicy', 'params']);
      assert.match(policies.stdout, /^NAME\s+VALIDATIONS\s+PARAMKIND\s+AGE\nparams\s+1\s+v1\/ConfigMap\s+\d+s\n$/);
      const bindings = await kubectl.ok(['get', 'validatingadmissionpolicybindings', 'params', 'params-selected']);
      assert.match(bindings.stdout, /^NAME\s+POLICYNAME\s+PARAMREF\s+AGE\nparams\s+params\s+vap-params\/limits\s+\d+s\nparams-selected\s+params\s+&LabelSelector\{MatchLabels:map\[string\]string\{limits: yes,\},MatchExpressions:\[\]LabelSelectorRequirement\{\},\}\s+\d+s\n$/);
    } finally {
      adminKc.remove();
    }
  });

  test('matchConditions and variables decide what is checked and with what', async () => {
    await createPolicy('conditions', {
      failurePolicy: 'Fail',
      matchConditions: [{ name: 'checked-only', expression: "object.metadata.name.startsWith('checked-')" }],
      variables: [
        { name: 'keys', expression: 'has(object.data) ? size(object.data) : 0' },
        { name: 'tooMany', expression: 'variables.keys > 1' },
      ],
      validations: [{ expression: '!variables.tooMany', messageExpression: "'has ' + string(variables.keys) + ' keys'" }],
    });
    await createBinding('conditions', {});
    const r = await inForce('vap', cm('checked-a', { case: 'conditions' }, { a: '1', b: '2' }), (x) => x.status === 422, 'the policy with conditions');
    assert.match(r.body.message, /denied request: has 2 keys$/);
    assert.equal((await post(admin, 'vap', cm('unchecked', { case: 'conditions' }, { a: '1', b: '2' }))).status, 201, 'the condition does not hold');
    assert.equal((await post(admin, 'vap', cm('checked-b', { case: 'conditions' }, { a: '1' }))).status, 201);
  });

  test('a binding narrows the policy by namespace and object selectors', async () => {
    await createPolicy('selectors', { failurePolicy: 'Fail', validations: [{ expression: 'false', message: 'refused here' }] });
    await createBinding('selectors', {
      matchResources: { namespaceSelector: { matchLabels: { 'vap-suite': 'yes' } }, objectSelector: { matchExpressions: [{ key: 'guarded', operator: 'Exists' }] } },
    });
    await inForce('vap', cm('g1', { case: 'selectors', guarded: '' }), (x) => x.status === 422, 'the narrowed binding');
    assert.equal((await post(admin, 'vap-other', cm('g2', { case: 'selectors', guarded: '' }))).status, 201, 'namespace not selected');
    assert.equal((await post(admin, 'vap', cm('g3', { case: 'selectors' }))).status, 201, 'object not selected');
  });

  test('an evaluation error refuses the request under failurePolicy Fail and is ignored under Ignore', async () => {
    const erroring = [{ expression: "object.metadata.labels['missing'] == 'x'" }];
    await createPolicy('errors-fail', { failurePolicy: 'Fail', validations: erroring });
    await createBinding('errors-fail', {});
    await createPolicy('errors-ignore', { failurePolicy: 'Ignore', validations: erroring });
    await createBinding('errors-ignore', {});
    const r = await inForce('vap', cm('e1', { case: 'errors-fail' }), (x) => x.status === 422, 'the failing policy');
    assert.equal(r.body.message, "configmaps \"e1\" is forbidden: ValidatingAdmissionPolicy 'errors-fail' with binding 'errors-fail' denied request: expression 'object.metadata.labels['missing'] == 'x'' resulted in error: no such key: missing");
    // The ignoring policy is in force once a failing one created after it is.
    await createPolicy('errors-marker', { failurePolicy: 'Fail', validations: [{ expression: 'false' }] });
    await createBinding('errors-marker', {});
    await inForce('vap', cm('e2', { case: 'errors-marker' }), (x) => x.status === 422, 'a policy created after the ignoring one');
    assert.equal((await post(admin, 'vap', cm('e3', { case: 'errors-ignore' }))).status, 201);
  });

  test('a policy whose expression does not compile is refused at write, with cel-go\'s message', async () => {
    const r = await admin.post(policiesPath(), {
      metadata: { name: 'bad' },
      spec: { failurePolicy: 'Fail', matchConstraints: constraints('bad'), validations: [{ expression: 'objekt.metadata.name == "a"' }] },
    });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.reason, 'Invalid');
    assert.deepEqual(r.body.details.causes, [{
      reason: 'FieldValueInvalid', field: 'spec.validations[0].expression',
      message: 'Invalid value: "objekt.metadata.name == \\"a\\"": compilation failed: ERROR: <input>:1:1: undeclared reference to \'objekt\' (in container \'\')\n | objekt.metadata.name == "a"\n | ^',
    }]);
    const notBool = await admin.post(policiesPath(), {
      metadata: { name: 'bad' },
      spec: { failurePolicy: 'Fail', matchConstraints: constraints('bad'), validations: [{ expression: "'a string'" }] },
    });
    assert.equal(notBool.status, 422);
    assert.equal(notBool.body.details.causes[0].message, 'Invalid value: "\'a string\'": must evaluate to bool');
    assert.equal((await admin.get(`${policiesPath()}/bad`)).status, 404);
  });

  test('writing a policy or binding with parameters needs read access to them', async () => {
    const rbac = '/apis/rbac.authorization.orch.io/v1';
    assert.equal((await admin.post(`${rbac}/clusterroles`, {
      metadata: { name: 'policy-writer' }, rules: [{ apiGroups: [group], resources: ['validatingadmissionpolicies', 'validatingadmissionpolicybindings'], verbs: ['create'] }],
    })).status, 201);
    assert.equal((await admin.post(`${rbac}/clusterrolebindings`, {
      metadata: { name: 'jane-policy-writer' }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'policy-writer' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'jane' }],
    })).status, 201);
    const spec = { failurePolicy: 'Fail', matchConstraints: constraints('jane'), validations: [{ expression: 'true' }] };
    const withParams = () => jane.post(policiesPath(), { metadata: { name: 'jane-params' }, spec: { ...spec, paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } } });
    const r = await pollUntil(withParams, (x) => x.status !== 403, 'the cluster role to be in force');
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(r.body.details.causes, [{
      reason: 'FieldValueForbidden', field: 'spec.paramKind',
      message: 'Forbidden: user &{jane 2 [devs system:authenticated] map[]} must have "get" permission on all objects of the referenced paramKind (kind=ConfigMap, apiVersion=v1)',
    }]);
    assert.equal((await jane.post(policiesPath(), { metadata: { name: 'jane-plain' }, spec })).status, 201, 'no parameters, no extra check');
    const binding = await jane.post(bindingsPath(), {
      metadata: { name: 'jane-binding' },
      spec: { policyName: 'params', validationActions: ['Deny'], paramRef: { name: 'limits', namespace: 'vap-params', parameterNotFoundAction: 'Deny' } },
    });
    assert.equal(binding.status, 422, binding.text);
    assert.equal(binding.body.details.causes[0].message, 'Forbidden: user &{jane 2 [devs system:authenticated] map[]} does not have "get" permission on the object referenced by paramRef');
  });

  /** A definition of `plural` in policy.example.com/v1 whose objects hold `spec.maxKeys`. */
  const limitDefinition = (plural: string, kind: string, scope: 'Namespaced' | 'Cluster') => ({
    apiVersion: `apiextensions.${t.options.apiDomain}/v1`, kind: 'CustomResourceDefinition', metadata: { name: `${plural}.policy.example.com` },
    spec: {
      group: 'policy.example.com', scope, names: { plural, kind },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', required: ['maxKeys'], properties: { maxKeys: { type: 'integer', minimum: 0 } } } } } },
      }],
    },
  });
  const limit = (kind: string, name: string, maxKeys: number, labels: Record<string, string> = {}) =>
    ({ apiVersion: 'policy.example.com/v1', kind, metadata: { name, labels }, spec: { maxKeys } });
  let limitKinds: Promise<unknown> | undefined;
  /** Limit (namespaced) and ClusterLimit, established once for the tests that use them. */
  const establishLimitKinds = () => (limitKinds ??= Promise.all([
    establish(t, limitDefinition('limits', 'Limit', 'Namespaced'), admin),
    establish(t, limitDefinition('clusterlimits', 'ClusterLimit', 'Cluster'), admin),
  ]));

  test('parameters from custom resources, namespaced by name and cluster-scoped by selector, changed without a restart', async () => {
    await establishLimitKinds();
    const limits = '/apis/policy.example.com/v1/namespaces/vap-params/limits';
    const clusterLimits = '/apis/policy.example.com/v1/clusterlimits';
    assert.equal((await admin.post(limits, limit('Limit', 'small', 1))).status, 201);
    const validations = [{ expression: '!has(object.data) || size(object.data) <= params.spec.maxKeys', messageExpression: "'at most ' + string(params.spec.maxKeys) + ' keys'" }];
    await createPolicy('cr-params', { failurePolicy: 'Fail', paramKind: { apiVersion: 'policy.example.com/v1', kind: 'Limit' }, validations });
    await createBinding('cr-params', { paramRef: { name: 'small', namespace: 'vap-params', parameterNotFoundAction: 'Deny' } });
    const two = cm('cr-two', { case: 'cr-params' }, { a: '1', b: '2' });
    const r = await inForce('vap', two, (x) => x.status === 422, 'the policy with custom resource parameters');
    assert.equal(r.body.message, "configmaps \"cr-two\" is forbidden: ValidatingAdmissionPolicy 'cr-params' with binding 'cr-params' denied request: at most 1 keys");
    const small = (await admin.get(`${limits}/small`)).body;
    assert.equal((await admin.put(`${limits}/small`, { ...small, spec: { maxKeys: 2 } })).status, 200);
    await inForce('vap', two, (x) => x.status === 201, 'the changed parameter to be read');
    // Gone: Deny refuses, naming why.
    assert.equal((await admin.delete(`${limits}/small`)).status, 200);
    const gone = await inForce('vap', two, (x) => x.status !== 201, 'the deleted parameter to be missed');
    assert.equal(gone.status, 422, gone.text);
    assert.match(gone.body.message, /denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction$/);

    // Cluster-scoped parameters picked by a label selector: each one matched is checked.
    assert.equal((await admin.post(clusterLimits, limit('ClusterLimit', 'loose', 3, { tier: 'strict' }))).status, 201);
    assert.equal((await admin.post(clusterLimits, limit('ClusterLimit', 'tight', 1, { tier: 'strict' }))).status, 201);
    assert.equal((await admin.post(clusterLimits, limit('ClusterLimit', 'other', 0, { tier: 'lax' }))).status, 201);
    await createPolicy('cr-cluster-params', { failurePolicy: 'Fail', paramKind: { apiVersion: 'policy.example.com/v1', kind: 'ClusterLimit' }, validations });
    await createBinding('cr-cluster-params', { paramRef: { selector: { matchLabels: { tier: 'strict' } }, parameterNotFoundAction: 'Allow' } });
    const one = cm('cr-one', { case: 'cr-cluster-params' }, { a: '1' });
    const clustered = await inForce('vap', cm('cr-two', { case: 'cr-cluster-params' }, { a: '1', b: '2' }), (x) => x.status === 422, 'the cluster-scoped parameters');
    assert.match(clustered.body.message, /with binding 'cr-cluster-params' denied request: at most 1 keys$/);
    assert.equal((await post(admin, 'vap', one, '?dryRun=All')).status, 201, 'within every selected limit');
    // A parameter that stops matching the selector stops counting.
    const tight = (await admin.get(`${clusterLimits}/tight`)).body;
    assert.equal((await admin.put(`${clusterLimits}/tight`, { ...tight, metadata: { ...tight.metadata, labels: { tier: 'lax' } } })).status, 200);
    await inForce('vap', cm('cr-two', { case: 'cr-cluster-params' }, { a: '1', b: '2' }), (x) => x.status === 201, 'the relabelled parameter to drop out');
    // params typed as the definition's schema says: the expressions type-check without warnings.
    const typed = await pollUntil(() => admin.get(`${policiesPath()}/cr-cluster-params`), (x) => x.body.status?.observedGeneration === 1, 'type checking');
    assert.deepEqual(typed.body.status, { observedGeneration: 1, typeChecking: {} });
  });

  test('a policy matching a custom resource checks its objects, and type checking reads the definition\'s schema', async () => {
    await Promise.all([establish(t, widgetDefinition(), admin), establishLimitKinds()]);
    const widgets = '/apis/stable.example.com/v1/namespaces/vap/widgets';
    const widget = (name: string, replicas: number) => ({ apiVersion: 'stable.example.com/v1', kind: 'Widget', metadata: { name }, spec: { color: 'red', replicas } });
    assert.equal((await admin.post('/apis/policy.example.com/v1/clusterlimits', limit('ClusterLimit', 'widget-limit', 3))).status, 201);
    const p = await createPolicy('widgets', {
      // The misspelt field below fails at run time; Ignore lets the correct validation decide.
      failurePolicy: 'Ignore',
      paramKind: { apiVersion: 'policy.example.com/v1', kind: 'ClusterLimit' },
      matchConstraints: { resourceRules: [{ apiGroups: ['stable.example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE', 'UPDATE'] }] },
      validations: [
        { expression: 'object.spec.replicas <= params.spec.maxKeys', messageExpression: "'widget ' + object.metadata.name + ' wants ' + string(object.spec.replicas) + ' replicas, at most ' + string(params.spec.maxKeys)" },
        { expression: "object.spec.colour != 'black'", messageExpression: "'limit ' + string(params.spec.maxKey)" },
        { expression: "object.spec.color != 'blue' && object.spec.replicas >= 0" },
      ],
    });
    await createBinding('widgets', { paramRef: { name: 'widget-limit', parameterNotFoundAction: 'Deny' } });
    const denied = await pollUntil(() => admin.post(`${widgets}?dryRun=All`, widget('big', 5)), (x) => x.status === 422, 'the policy on widgets');
    assert.equal(denied.body.message, "widgets.stable.example.com \"big\" is forbidden: ValidatingAdmissionPolicy 'widgets' with binding 'widgets' denied request: widget big wants 5 replicas, at most 3");
    assert.equal((await admin.post(widgets, widget('small', 2))).status, 201);
    const small = (await admin.get(`${widgets}/small`)).body;
    const grown = await admin.put(`${widgets}/small`, { ...small, spec: { ...small.spec, replicas: 4 } });
    assert.equal(grown.status, 422, 'an update is checked too');

    // Type checking: Widget from the definition's schema, params from ClusterLimit's.
    const typed = await pollUntil(() => admin.get(`${policiesPath()}/widgets`), (r) => r.body.status?.observedGeneration === p.metadata.generation, 'type checking');
    assert.deepEqual(typed.body.status.typeChecking.expressionWarnings, [
      { fieldRef: 'spec.validations[1].expression', warning: "stable.example.com/v1, Kind=Widget: ERROR: <input>:1:12: undefined field 'colour'\n | object.spec.colour != 'black'\n | ...........^\n" },
      { fieldRef: 'spec.validations[1].messageExpression', warning: "stable.example.com/v1, Kind=Widget: ERROR: <input>:1:30: undefined field 'maxKey'\n | 'limit ' + string(params.spec.maxKey)\n | .............................^\n" },
    ]);
  });

  test('type checking writes its warnings to the policy\'s status', async () => {
    const p = await createPolicy('typed', {
      failurePolicy: 'Fail',
      validations: [
        { expression: 'object.spec.replicas > 1' },
        { expression: "object.metadata.name != ''", messageExpression: "'name: ' + object.metadata.nam" },
        { expression: 'size(object.data) < 10' },
      ],
    });
    const typed = await pollUntil(() => admin.get(`${policiesPath()}/typed`), (r) => r.body.status?.typeChecking !== undefined, 'type checking');
    assert.equal(typed.body.status.observedGeneration, p.metadata.generation);
    assert.deepEqual(typed.body.status.typeChecking.expressionWarnings, [
      { fieldRef: 'spec.validations[0].expression', warning: "/v1, Kind=ConfigMap: ERROR: <input>:1:7: undefined field 'spec'\n | object.spec.replicas > 1\n | ......^\n" },
      { fieldRef: 'spec.validations[1].messageExpression', warning: "/v1, Kind=ConfigMap: ERROR: <input>:1:27: undefined field 'nam'\n | 'name: ' + object.metadata.nam\n | ..........................^\n" },
    ]);
    // A fixed policy is checked again: no warnings.
    const current = typed.body;
    current.spec.validations = [{ expression: 'size(object.data) < 10' }];
    const updated = await admin.put(`${policiesPath()}/typed`, current);
    assert.equal(updated.status, 200, updated.text);
    const fixed = await pollUntil(() => admin.get(`${policiesPath()}/typed`), (r) => r.body.status?.observedGeneration === updated.body.metadata.generation, 'type checking again');
    // The status manager's apply emptied typeChecking, which leaves it out, as upstream's does.
    assert.deepEqual(fixed.body.status, { observedGeneration: updated.body.metadata.generation });
  });
});
