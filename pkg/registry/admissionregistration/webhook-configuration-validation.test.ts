import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MutatingWebhookConfiguration, ValidatingWebhookConfiguration } from '../../../api/admissionregistration/v1/webhook-configuration.js';
import { errorMessage, type FieldError } from '../../runtime/field-errors.js';
import { createErrors, defaulted, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { mutatingWebhookConfigurationValidation, validatingWebhookConfigurationValidation } from './webhook-configuration-validation.js';

const validating: KindUnderTest<ValidatingWebhookConfiguration> = { schema: ValidatingWebhookConfiguration, validation: validatingWebhookConfigurationValidation };
const mutating: KindUnderTest<MutatingWebhookConfiguration> = { schema: MutatingWebhookConfiguration, validation: mutatingWebhookConfigurationValidation };

type Hook = Record<string, unknown>;
const hook = (over: Hook = {}): Hook => ({
  name: 'check.example.com',
  clientConfig: { url: 'https://hook.example.com/check' },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...over,
});
const config = (kind: 'Validating' | 'Mutating', ...webhooks: Hook[]) => ({
  apiVersion: 'admissionregistration.orch.io/v1', kind: `${kind}WebhookConfiguration`, metadata: { name: 'hooks' }, webhooks,
});
const vwc = (...webhooks: Hook[]) => config('Validating', ...webhooks);
const mwc = (...webhooks: Hook[]) => config('Mutating', ...webhooks);

/** The causes as upstream prints them, `field: Type: value: detail`. */
const messages = (errs: FieldError[]) => errs.map(errorMessage);
const create = (...webhooks: Hook[]) => messages(createErrors(validating, vwc(...webhooks)));

test('every default of a webhook is filled in, reinvocationPolicy only for mutating ones', () => {
  const v = defaulted(validating, vwc(hook({ clientConfig: { service: { namespace: 'ns', name: 'svc' } } })));
  const w = v.webhooks![0]!;
  assert.equal(w.failurePolicy, 'Fail');
  assert.equal(w.matchPolicy, 'Equivalent');
  assert.deepEqual(w.namespaceSelector, {});
  assert.deepEqual(w.objectSelector, {});
  assert.equal(w.timeoutSeconds, 10);
  assert.equal(w.rules![0]!.scope, '*');
  assert.equal(w.clientConfig!.service!.port, 443);
  assert.equal(w.sideEffects, 'None', 'sideEffects has no default');
  assert.equal('reinvocationPolicy' in w, false);
  assert.equal(defaulted(mutating, mwc(hook())).webhooks![0]!.reinvocationPolicy, 'Never');
  assert.deepEqual(createErrors(validating, vwc(hook())), []);
  assert.deepEqual(createErrors(mutating, mwc(hook({ reinvocationPolicy: 'IfNeeded' }))), []);
});

test('configuration names are DNS subdomains', () => {
  assert.deepEqual(validatingWebhookConfigurationValidation.name('hooks.example.com', false), []);
  assert.ok(validatingWebhookConfigurationValidation.name('Hooks', false).length > 0);
});

test('webhook names are fully qualified DNS subdomains', () => {
  assert.deepEqual(create(hook({ name: 'check.example' })), ['webhooks[0].name: Invalid value: "check.example": should be a domain with at least three segments separated by dots']);
  const bad = create(hook({ name: 'Check.example.com' }));
  assert.equal(bad.length, 1);
  assert.match(bad[0]!, /^webhooks\[0\]\.name: Invalid value: "Check.example.com": a lowercase RFC 1123 subdomain must consist of/);
  assert.deepEqual(create(hook({ name: '' })), ['webhooks[0].name: Required value']);
  assert.deepEqual(summary(createErrors(validating, vwc({ ...hook(), name: undefined }))), ['FieldValueRequired webhooks[0].name']);
});

test('webhook names are unique within a configuration', () => {
  assert.deepEqual(create(hook(), hook()), ['webhooks[1].name: Duplicate value: "check.example.com"']);
  assert.deepEqual(messages(createErrors(mutating, mwc(hook(), hook({ name: 'other.example.com' }), hook()))), ['webhooks[2].name: Duplicate value: "check.example.com"']);
});

test('clientConfig names exactly one of url and service', () => {
  const message = 'webhooks[0].clientConfig: Required value: exactly one of url or service is required';
  assert.deepEqual(create(hook({ clientConfig: {} })), [message]);
  assert.deepEqual(create(hook({ clientConfig: undefined })), [message]);
  assert.deepEqual(create(hook({ clientConfig: { url: 'https://a.example.com', service: { namespace: 'ns', name: 'svc' } } })), [message]);
});

test('a URL is https with a host, without user information, query or fragment', () => {
  const url = (u: string) => create(hook({ clientConfig: { url: u } }));
  const form = '; desired format: https://host[/path]';
  assert.deepEqual(url('http://hook.example.com/x'), [`webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme${form}`]);
  assert.deepEqual(url('https:///x'), [`webhooks[0].clientConfig.url: Invalid value: "": host must be specified${form}`]);
  assert.deepEqual(url('hook.example.com/x'), [
    `webhooks[0].clientConfig.url: Invalid value: "": 'https' is the only allowed URL scheme${form}`,
    `webhooks[0].clientConfig.url: Invalid value: "": host must be specified${form}`,
  ]);
  assert.deepEqual(url('https://me@hook.example.com/'), ['webhooks[0].clientConfig.url: Invalid value: "me": user information is not permitted in the URL']);
  // The password never reaches the message.
  assert.deepEqual(url('https://me:s3cret@hook.example.com/'), ['webhooks[0].clientConfig.url: Invalid value: "me:xxxxx": user information is not permitted in the URL']);
  assert.deepEqual(url('https://hook.example.com/x?a=b'), ['webhooks[0].clientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL']);
  assert.deepEqual(url('https://hook.example.com/x#top'), ['webhooks[0].clientConfig.url: Invalid value: "top": fragments are not permitted in the URL']);
  assert.deepEqual(url('https://hook.example.com:x/'), [`webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse "https://hook.example.com:x/": invalid port ":x" after host${form}`]);
  assert.deepEqual(url('https://hook.example.com:8443/check'), []);
});

test('a service reference has a namespace, a name, a valid port and a clean path', () => {
  const svc = (s: Record<string, unknown>) => create(hook({ clientConfig: { service: { namespace: 'ns', name: 'svc', ...s } } }));
  const p = 'webhooks[0].clientConfig.service';
  assert.deepEqual(svc({ name: '' }), [`${p}.name: Required value: service name is required`]);
  assert.deepEqual(create(hook({ clientConfig: { service: {} } })), [`${p}.name: Required value: service name is required`, `${p}.namespace: Required value: service namespace is required`]);
  assert.deepEqual(svc({ port: 0 }), [`${p}.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive`]);
  assert.deepEqual(svc({ port: 65536 }), [`${p}.port: Invalid value: 65536: port is not valid: must be between 1 and 65535, inclusive`]);
  assert.deepEqual(svc({ path: 'check' }), [`${p}.path: Invalid value: "check": must start with a '/'`]);
  assert.deepEqual(svc({ path: '//' }), [`${p}.path: Invalid value: "//": segment[0] may not be empty`]);
  assert.deepEqual(svc({ path: '/a//b' }), [`${p}.path: Invalid value: "/a//b": segment[1] may not be empty`]);
  const dots = svc({ path: '/a/../b' });
  assert.equal(dots.length, 1);
  assert.match(dots[0]!, /^webhooks\[0\]\.clientConfig\.service\.path: Invalid value: "\/a\/..\/b": segment\[1\]: a lowercase RFC 1123 subdomain/);
  assert.deepEqual(svc({ path: '/' }), []);
  assert.deepEqual(svc({ path: '/validate/pods.v1/' , port: 8443 }), []);
});

test('admissionReviewVersions are required, distinct, and include a supported version', () => {
  const p = 'webhooks[0].admissionReviewVersions';
  assert.deepEqual(create(hook({ admissionReviewVersions: [] })), [`${p}: Required value: must specify one of v1, v1beta1`]);
  assert.deepEqual(create(hook({ admissionReviewVersions: undefined })), [`${p}: Required value: must specify one of v1, v1beta1`]);
  assert.deepEqual(create(hook({ admissionReviewVersions: ['v2'] })), [`${p}: Invalid value: ["v2"]: must include at least one of v1, v1beta1`]);
  assert.deepEqual(create(hook({ admissionReviewVersions: ['v1', 'v1'] })), [`${p}[1]: Invalid value: "v1": duplicate version`]);
  const label = create(hook({ admissionReviewVersions: ['v1', 'V2'] }));
  assert.equal(label.length, 1);
  assert.match(label[0]!, /^webhooks\[0\]\.admissionReviewVersions\[1\]: Invalid value: "V2": a DNS-1035 label/);
  assert.deepEqual(create(hook({ admissionReviewVersions: ['v2', 'v1beta1'] })), []);
});

test('sideEffects is required and None or NoneOnDryRun', () => {
  const p = 'webhooks[0].sideEffects';
  assert.deepEqual(create(hook({ sideEffects: undefined })), [`${p}: Required value: must specify one of None, NoneOnDryRun`]);
  assert.deepEqual(create(hook({ sideEffects: 'Some' })), [`${p}: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"`]);
  assert.deepEqual(create(hook({ sideEffects: 'Unknown' })), [`${p}: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"`]);
  assert.deepEqual(create(hook({ sideEffects: 'NoneOnDryRun' })), []);
});

test('timeoutSeconds lies between 1 and 30', () => {
  for (const t of [0, 31, -1]) {
    assert.deepEqual(create(hook({ timeoutSeconds: t })), [`webhooks[0].timeoutSeconds: Invalid value: ${t}: the timeout value must be between 1 and 30 seconds`]);
  }
  assert.deepEqual(create(hook({ timeoutSeconds: 1 }), hook({ name: 'b.example.com', timeoutSeconds: 30 })), []);
});

test('failurePolicy, matchPolicy, reinvocationPolicy and scope take their known values', () => {
  assert.deepEqual(create(hook({ failurePolicy: 'Retry' })), ['webhooks[0].failurePolicy: Unsupported value: "Retry": supported values: "Fail", "Ignore"']);
  assert.deepEqual(create(hook({ matchPolicy: 'Loose' })), ['webhooks[0].matchPolicy: Unsupported value: "Loose": supported values: "Equivalent", "Exact"']);
  assert.deepEqual(messages(createErrors(mutating, mwc(hook({ reinvocationPolicy: 'Always' })))),
    ['webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"']);
  const rule = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: 'Global' };
  assert.deepEqual(create(hook({ rules: [rule] })), ['webhooks[0].rules[0].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"']);
});

test('rule operations are known, non-empty, and "*" stands alone', () => {
  const rule = (r: Record<string, unknown>) => create(hook({ rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], ...r }] }));
  assert.deepEqual(rule({ operations: [] }), ['webhooks[0].rules[0].operations: Required value']);
  assert.deepEqual(rule({ operations: undefined }), ['webhooks[0].rules[0].operations: Required value']);
  assert.deepEqual(rule({ operations: ['CREATE', 'PATCH'] }),
    ['webhooks[0].rules[0].operations[1]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"']);
  assert.deepEqual(rule({ operations: ['*', 'CREATE'] }), ['webhooks[0].rules[0].operations: Invalid value: ["*","CREATE"]: if \'*\' is present, must not specify other operations']);
  assert.deepEqual(rule({ operations: ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] }), []);
});

test('rule groups and versions are non-empty and "*" stands alone', () => {
  const rule = (r: Record<string, unknown>) => create(hook({ rules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], ...r }] }));
  const p = 'webhooks[0].rules[0]';
  assert.deepEqual(rule({ apiGroups: [] }), [`${p}.apiGroups: Required value`]);
  assert.deepEqual(rule({ apiGroups: ['*', 'apps'] }), [`${p}.apiGroups: Invalid value: ["*","apps"]: if '*' is present, must not specify other API groups`]);
  assert.deepEqual(rule({ apiVersions: [] }), [`${p}.apiVersions: Required value`]);
  assert.deepEqual(rule({ apiVersions: ['v1', '*'] }), [`${p}.apiVersions: Invalid value: ["v1","*"]: if '*' is present, must not specify other API versions`]);
  assert.deepEqual(rule({ apiVersions: ['v1', ''] }), [`${p}.apiVersions[1]: Required value`]);
  assert.deepEqual(rule({ apiGroups: ['', 'apps'], apiVersions: ['v1', 'v1beta1'] }), []);
});

test('rule resources follow the sub-resource wildcard rules', () => {
  const res = (resources: string[] | undefined) => create(hook({ rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources }] }));
  const p = 'webhooks[0].rules[0].resources';
  assert.deepEqual(res([]), [`${p}: Required value`]);
  assert.deepEqual(res(undefined), [`${p}: Required value`]);
  assert.deepEqual(res(['pods', '']), [`${p}[1]: Required value`]);
  assert.deepEqual(res(['*/*', 'pods']), [`${p}: Invalid value: ["*/*","pods"]: if '*/*' is present, must not specify other resources`]);
  assert.deepEqual(res(['*', 'pods']), [`${p}: Invalid value: ["*","pods"]: if '*' is present, must not specify other resources without subresources`]);
  assert.deepEqual(res(['pods/*', 'pods/status']), [`${p}[1]: Invalid value: "pods/status": if 'pods/*' is present, must not specify pods/status`]);
  assert.deepEqual(res(['*/status', 'pods/status']), [`${p}[1]: Invalid value: "pods/status": if '*/status' is present, must not specify pods/status`]);
  assert.deepEqual(res(['*', '*/status', 'pods/*']), []);
  assert.deepEqual(res(['pods', '*']), [], 'as upstream, only the last entry without a sub-resource counts');
  assert.deepEqual(res(['*/*']), []);
});

test('selectors are validated as label selectors', () => {
  const errs = create(hook({
    namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'Near', values: ['a'] }] },
    objectSelector: { matchLabels: { 'bad key!': 'x' } },
  }));
  assert.deepEqual(errs.map((e) => e.split(':')[0]), ['webhooks[0].namespaceSelector.matchExpressions[0].operator', 'webhooks[0].objectSelector.matchLabels']);
  assert.deepEqual(create(hook({ objectSelector: { matchExpressions: [{ key: 'env', operator: 'In' }] } })),
    ["webhooks[0].objectSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"]);
});

test('match conditions: required, qualified and unique names, non-empty well-formed expressions, at most 64', () => {
  const mc = (...matchConditions: Record<string, unknown>[]) => create(hook({ matchConditions }));
  const p = 'webhooks[0].matchConditions';
  assert.deepEqual(mc({ name: 'a', expression: 'object.metadata.name != "x"' }, { name: 'b', expression: "has(object.spec) && [1, 2].size() == 2" }), []);
  assert.deepEqual(mc({ name: 'a', expression: 'true' }, { name: 'a', expression: 'false' }), [`${p}[1].name: Duplicate value: "a"`]);
  assert.deepEqual(mc({ name: '', expression: 'true' }), [`${p}[0].name: Required value`]);
  assert.deepEqual(mc({ name: 'a', expression: '  ' }), [`${p}[0].expression: Required value`]);
  // The schema and the rules both see the missing name; the store reports it once.
  assert.deepEqual([...new Set(summary(createErrors(validating, vwc(hook({ matchConditions: [{ expression: 'true' }] })))))], [`FieldValueRequired ${p}[0].name`]);
  const bad = mc({ name: 'no spaces', expression: 'true' });
  assert.equal(bad.length, 1);
  assert.match(bad[0]!, /^webhooks\[0\]\.matchConditions\[0\]\.name: Invalid value: "no spaces": name part must consist of/);
  assert.deepEqual(mc({ name: 'a', expression: 'size(object.x' }), [
    `${p}[0].expression: Invalid value: "size(object.x": compilation failed: ERROR: <input>:1:14: Syntax error: missing ')' at '<EOF>'\n | size(object.x\n | .............^`,
  ]);
  assert.deepEqual(mc({ name: 'a', expression: '"open' }), [
    `${p}[0].expression: Invalid value: "\\"open": compilation failed: ERROR: <input>:1:1: Syntax error: token recognition error at: '"open'\n | "open\n | ^`,
  ]);
  // Expressions are compiled, not only parsed: unknown names, fields and types are refused.
  assert.deepEqual(mc({ name: 'a', expression: 'nope == 1' }), [
    `${p}[0].expression: Invalid value: "nope == 1": compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope == 1\n | ^`,
  ]);
  assert.deepEqual(mc({ name: 'a', expression: 'request.nope' }), [
    `${p}[0].expression: Invalid value: "request.nope": compilation failed: ERROR: <input>:1:8: undefined field 'nope'\n | request.nope\n | .......^`,
  ]);
  assert.deepEqual(mc({ name: 'a', expression: '1 + 1' }), [`${p}[0].expression: Invalid value: "1 + 1": must evaluate to bool`]);
  assert.deepEqual(mc({ name: 'a', expression: 'authorizer.group("").resource("pods").check("get").allowed() && request.userInfo.username != ""' }), [
  ]);
  const many = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
  assert.deepEqual(mc(...many), [`${p}: Too many: 65: must have at most 64 items`]);
  assert.deepEqual(mc(...many.slice(0, 64)), []);
});

test('an update keeps side effects, review versions, duplicate names and selector values the stored object already had', () => {
  // Stored before v1 narrowed the rules (or through an older version).
  const old = vwc(hook({ sideEffects: 'Some', admissionReviewVersions: ['v2'], objectSelector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['bad value'] }] } }), hook());
  const next = vwc(hook({ sideEffects: 'Unknown', admissionReviewVersions: ['v3'], timeoutSeconds: 5, objectSelector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['also bad'] }] } }), hook());
  assert.deepEqual(messages(updateErrors(validating, next, old)), []);
  // Against a clean stored object the same update is refused.
  const clean = vwc(hook(), hook({ name: 'b.example.com' }));
  assert.deepEqual(summary(updateErrors(validating, next, clean)), [
    'FieldValueNotSupported webhooks[0].sideEffects',
    'FieldValueInvalid webhooks[0].objectSelector.matchExpressions[0].values[0]',
    'FieldValueInvalid webhooks[0].admissionReviewVersions',
    'FieldValueDuplicate webhooks[1].name',
  ]);
  // Even relaxed, sideEffects and admissionReviewVersions stay required and Some is a known value.
  assert.deepEqual(messages(updateErrors(validating, vwc(hook({ sideEffects: 'Sometimes' }), hook()), old)),
    ['webhooks[0].sideEffects: Unsupported value: "Sometimes": supported values: "None", "NoneOnDryRun", "Some", "Unknown"']);
  assert.deepEqual(messages(updateErrors(validating, vwc(hook({ sideEffects: undefined })), old)),
    ['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun, Some, Unknown']);
});

test('an update does not check match conditions again unless they changed', () => {
  const stored = vwc(hook({ matchConditions: [{ name: 'a', expression: 'size(' }] }));
  assert.deepEqual(updateErrors(validating, vwc(hook({ matchConditions: [{ name: 'a', expression: 'size(' }], timeoutSeconds: 3 })), stored), []);
  assert.deepEqual(summary(updateErrors(validating, vwc(hook({ matchConditions: [{ name: 'a', expression: 'size(' }, { name: 'b', expression: 'true' }] })), stored)),
    ['FieldValueInvalid webhooks[0].matchConditions[0].expression']);
});
