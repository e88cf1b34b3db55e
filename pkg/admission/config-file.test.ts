import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AdmissionConfigError, readAdmissionConfiguration } from './config-file.js';

function withDir(fn: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'admission-config-'));
  try {
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const opts = { domain: 'orch.io', enabledPlugins: ['NamespaceLifecycle', 'ValidatingAdmissionWebhook', 'MutatingAdmissionWebhook', 'EventRateLimit'] };

test('no file configures nothing', () => {
  const cfg = readAdmissionConfiguration('', opts);
  assert.deepEqual(cfg.plugins, []);
  assert.equal(cfg.configFor('EventRateLimit'), undefined);
});

test('inline configuration and a relative path, for our group and for upstream\'s, v1 and v1alpha1', () => {
  withDir((dir) => {
    writeFileSync(join(dir, 'webhook.yaml'), 'apiVersion: apiserver.config.orch.io/v1\nkind: WebhookAdmissionConfiguration\nkubeConfigFile: /etc/kc\n');
    for (const apiVersion of ['apiserver.config.orch.io/v1', 'apiserver.config.k8s.io/v1', 'apiserver.config.orch.io/v1alpha1', 'apiserver.config.k8s.io/v1alpha1']) {
      const file = join(dir, 'admission.yaml');
      writeFileSync(file, [
        `apiVersion: ${apiVersion}`,
        'kind: AdmissionConfiguration',
        'plugins:',
        '- name: ValidatingAdmissionWebhook',
        '  path: webhook.yaml',
        '- name: EventRateLimit',
        '  configuration:',
        '    kind: Configuration',
        '    limits: [{type: Server, qps: 5, burst: 10}]',
        '- name: EventRateLimit',
        '  configuration: {ignored: true}',
        '- name: MutatingAdmissionWebhook',
        '  path: webhook.yaml',
        '  configuration: {inline: wins}',
        '- name: NamespaceLifecycle',
      ].join('\n'));
      const cfg = readAdmissionConfiguration(file, opts);
      assert.equal(cfg.plugins[0]!.path, join(dir, 'webhook.yaml'), apiVersion);
      assert.deepEqual(cfg.configFor('ValidatingAdmissionWebhook'), { apiVersion: 'apiserver.config.orch.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: '/etc/kc' });
      assert.deepEqual(cfg.configFor('EventRateLimit'), { kind: 'Configuration', limits: [{ type: 'Server', qps: 5, burst: 10 }] });
      assert.deepEqual(cfg.configFor('MutatingAdmissionWebhook'), { inline: 'wins' });
      assert.equal(cfg.configFor('NamespaceLifecycle'), undefined);
      assert.equal(cfg.configFor('Priority'), undefined);
      assert.deepEqual([...cfg.configurations(opts.enabledPlugins).keys()], ['ValidatingAdmissionWebhook', 'MutatingAdmissionWebhook', 'EventRateLimit']);
    }
  });
});

test('JSON files are read too; an absolute path stays as it is', () => {
  withDir((dir) => {
    const abs = join(dir, 'rate.json');
    writeFileSync(abs, '{"kind":"Configuration","limits":[]}');
    const file = join(dir, 'admission.json');
    writeFileSync(file, JSON.stringify({ apiVersion: 'apiserver.config.orch.io/v1', kind: 'AdmissionConfiguration', plugins: [{ name: 'EventRateLimit', path: abs }] }));
    const cfg = readAdmissionConfiguration(file, opts);
    assert.equal(cfg.plugins[0]!.path, abs);
    assert.deepEqual(cfg.configFor('EventRateLimit'), { kind: 'Configuration', limits: [] });
  });
});

test('the group follows the configured domain: another domain\'s group is not registered', () => {
  withDir((dir) => {
    const file = join(dir, 'a.yaml');
    writeFileSync(file, 'apiVersion: apiserver.config.example.com/v1\nkind: AdmissionConfiguration\nplugins: []\n');
    assert.deepEqual(readAdmissionConfiguration(file, { ...opts, domain: 'example.com' }).plugins, []);
    assert.throws(() => readAdmissionConfiguration(file, opts), (e) => e instanceof AdmissionConfigError &&
      e.message === `no kind "AdmissionConfiguration" is registered for version "apiserver.config.example.com/v1" in admission control configuration ${JSON.stringify(file)}`);
  });
});

test('refusals: missing file, bad YAML, no kind, no apiVersion, wrong version, wrong shapes, unreadable plug-in file', () => {
  withDir((dir) => {
    const missing = join(dir, 'missing.yaml');
    assert.throws(() => readAdmissionConfiguration(missing, opts), /^AdmissionConfigError: unable to read admission control configuration from ".*missing.yaml" \[ENOENT/);
    const file = join(dir, 'a.yaml');
    const refused = (body: string, re: RegExp) => {
      writeFileSync(file, body);
      assert.throws(() => readAdmissionConfiguration(file, opts), (e) => e instanceof AdmissionConfigError && re.test(e.message), body);
    };
    refused('plugins: [unclosed', /couldn't parse admission control configuration/);
    refused('apiVersion: apiserver.config.orch.io/v1\nplugins: []\n', /^Object 'Kind' is missing in '\{"apiVersion":"apiserver.config.orch.io\/v1","plugins":\[\]\}'$/);
    refused('kind: AdmissionConfiguration\n', /^Object 'apiVersion' is missing in/);
    refused('apiVersion: apiserver.config.orch.io/v1beta1\nkind: AdmissionConfiguration\n', /no kind "AdmissionConfiguration" is registered for version "apiserver.config.orch.io\/v1beta1"/);
    refused('apiVersion: apiserver.config.orch.io/v1\nkind: EncryptionConfiguration\n', /no kind "EncryptionConfiguration" is registered/);
    refused('- a\n- b\n', /must be an object, not a list/);
    refused('', /must be an object, not null/);
    refused('apiVersion: apiserver.config.orch.io/v1\nkind: AdmissionConfiguration\nplugins: {name: x}\n', /plugins must be a list/);
    refused('apiVersion: apiserver.config.orch.io/v1\nkind: AdmissionConfiguration\nplugins: [3]\n', /plugins\[0\] must be an object/);
    refused('apiVersion: apiserver.config.orch.io/v1\nkind: AdmissionConfiguration\nplugins: [{name: 3}]\n', /plugins\[0\]\.name must be a string/);
    refused('apiVersion: apiserver.config.orch.io/v1\nkind: AdmissionConfiguration\nplugins: [{name: A, path: [x]}]\n', /plugins\[0\]\.path must be a string/);
    writeFileSync(file, 'apiVersion: apiserver.config.orch.io/v1\nkind: AdmissionConfiguration\nplugins: [{name: EventRateLimit, path: nothere.yaml}, {name: Priority, path: bad.yaml}]\n');
    writeFileSync(join(dir, 'bad.yaml'), 'a: [');
    const cfg = readAdmissionConfiguration(file, opts);
    assert.throws(() => cfg.configFor('EventRateLimit'), /couldn't open admission plugin configuration .*nothere.yaml/);
    assert.throws(() => cfg.configFor('Priority'), /couldn't parse admission plugin configuration .*bad.yaml/);
  });
});

test('a legacy ImagePolicyWebhook / PodNodeSelector file configures those plug-ins when enabled', () => {
  withDir((dir) => {
    const file = join(dir, 'legacy.yaml');
    writeFileSync(file, 'podNodeSelectorPluginConfig:\n  clusterDefaultNodeSelector: env=prod\n');
    const enabled = { ...opts, enabledPlugins: ['NamespaceLifecycle', 'PodNodeSelector', 'ImagePolicyWebhook'] };
    const cfg = readAdmissionConfiguration(file, enabled);
    assert.deepEqual(cfg.plugins, [{ name: 'PodNodeSelector', path: file }, { name: 'ImagePolicyWebhook', path: file }]);
    assert.deepEqual(cfg.configFor('PodNodeSelector'), { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'env=prod' } });
    assert.deepEqual(readAdmissionConfiguration(file, opts).plugins, []);
  });
});
