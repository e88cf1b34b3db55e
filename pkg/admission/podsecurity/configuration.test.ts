import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultApiDomain } from '../../../api/domain.js';
import { PluginInitializationError } from '../registry.js';
import { loadPodSecurityConfiguration } from './configuration.js';

const load = (c: unknown) => loadPodSecurityConfiguration(c, defaultApiDomain);
const cfg = (body: Record<string, unknown>, apiVersion = 'pod-security.admission.config.orch.io/v1') => ({ apiVersion, kind: 'PodSecurityConfiguration', ...body });
const privileged = { level: 'privileged', version: 'latest' };

test('no configuration, or an empty one: privileged at latest for every mode, nothing exempt', () => {
  const none = { defaults: { enforce: privileged, audit: privileged, warn: privileged }, exemptions: { usernames: [], namespaces: [], runtimeClasses: [] } };
  assert.deepEqual(load(undefined), none);
  assert.deepEqual(load(cfg({})), none);
  assert.deepEqual(load(cfg({ defaults: null, exemptions: {} }, 'pod-security.admission.config.k8s.io/v1beta1')), none);
});

test('defaults and exemptions are read; an unset version is latest', () => {
  const c = load(cfg({
    defaults: { enforce: 'baseline', 'enforce-version': 'v1.25', audit: 'restricted', warn: 'restricted', 'warn-version': 'v1.28' },
    exemptions: { usernames: ['system:serviceaccount:ci:builder'], namespaces: ['kube-system'], runtimeClasses: ['kata'] },
  }, 'pod-security.admission.config.k8s.io/v1alpha1'));
  assert.deepEqual(c.defaults, { enforce: { level: 'baseline', version: 'v1.25' }, audit: { level: 'restricted', version: 'latest' }, warn: { level: 'restricted', version: 'v1.28' } });
  assert.deepEqual(c.exemptions, { usernames: ['system:serviceaccount:ci:builder'], namespaces: ['kube-system'], runtimeClasses: ['kata'] });
});

test('a configuration that cannot be decoded is refused as upstream\'s strict decoder words it', () => {
  const cases: [unknown, RegExp | string][] = [
    [{ kind: 'PodSecurityConfiguration' }, `Object 'apiVersion' is missing in '{"kind":"PodSecurityConfiguration"}'`],
    [{ apiVersion: 'pod-security.admission.config.orch.io/v1' }, `Object 'Kind' is missing in '{"apiVersion":"pod-security.admission.config.orch.io/v1"}'`],
    [cfg({}, 'pod-security.admission.config.orch.io/v2'), 'no kind "PodSecurityConfiguration" is registered for version "pod-security.admission.config.orch.io/v2"'],
    [{ ...cfg({}), kind: 'Configuration' }, 'no kind "Configuration" is registered for version "pod-security.admission.config.orch.io/v1"'],
    [cfg({ defaults: { enforce: 'baseline', enfroce: 'x' }, extra: 1 }), 'strict decoding error: unknown field "extra", unknown field "defaults.enfroce"'],
    [cfg({ defaults: { enforce: 3 } }), 'json: cannot unmarshal number into Go struct field PodSecurityDefaults.defaults.enforce of type string'],
    [cfg({ exemptions: { namespaces: 'kube-system' } }), 'json: cannot unmarshal string into Go struct field PodSecurityExemptions.exemptions.namespaces of type []string'],
    [cfg({ defaults: [] }), 'json: cannot unmarshal array into Go struct field PodSecurityConfiguration.defaults of type v1.PodSecurityDefaults'],
    ['text', 'expected PodSecurityConfiguration, got string'],
  ];
  for (const [c, message] of cases) {
    assert.throws(() => load(c), (e: Error) => {
      assert.ok(!(e instanceof PluginInitializationError), 'a decoding error');
      assert.equal(e.message, message);
      return true;
    });
  }
});

test('invalid defaults and exemptions fail the plug-in\'s initialization with upstream\'s messages', () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ defaults: { enforce: 'strict' } }, 'PodSecurity configuration error: enforce: must be one of privileged, baseline, restricted'],
    [{ defaults: { audit: 'x', 'warn-version': 'v2' } }, 'PodSecurity configuration error: [audit: must be one of privileged, baseline, restricted, warn-version: must be "latest" or "v1.x"]'],
    [{ exemptions: { namespaces: ['ok', 'Not_OK', 'ok'], runtimeClasses: ['a.b', 'a.b'], usernames: [''] } },
      'PodSecurity invalid: [exemptions.namespaces[1]: Invalid value: "Not_OK": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', ' +
      'and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\'), ' +
      'exemptions.namespaces[2]: Duplicate value: "ok", exemptions.runtimeClasses[1]: Duplicate value: "a.b", exemptions.usernames[0]: Invalid value: "": username must not be empty]'],
  ];
  for (const [body, message] of cases) {
    assert.throws(() => load(cfg(body)), (e: Error) => e instanceof PluginInitializationError && e.message === message, message);
  }
});
