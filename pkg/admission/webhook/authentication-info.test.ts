import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WebhookCredentials } from '../../util/webhook/kubeconfig.js';
import { AuthenticationInfoResolver, webhookKubeconfigFile } from './authentication-info.js';

const token = (t: string): WebhookCredentials => ({ bearerToken: () => t });
const resolver = (names: string[], currentUser = '') => new AuthenticationInfoResolver({ users: new Map(names.map((n) => [n, token(n)])), currentUser });
const who = (c: WebhookCredentials) => c.bearerToken?.() ?? 'anonymous';

test('a service is matched by <svc>.<ns>.svc:<port>, then wildcards, then without :443, then `*`, then the current user', () => {
  assert.equal(who(resolver(['hook.team.svc:8443', '*.team.svc:8443', '*']).forService('hook', 'team', 8443)), 'hook.team.svc:8443');
  assert.equal(who(resolver(['*.team.svc:8443', '*']).forService('hook', 'team', 8443)), '*.team.svc:8443');
  assert.equal(who(resolver(['*.svc:8443']).forService('hook', 'team', 8443)), '*.svc:8443');
  assert.equal(who(resolver(['hook.team.svc', '*']).forService('hook', 'team', 8443)), '*', 'a name without a port is only for 443');
  assert.equal(who(resolver(['hook.team.svc']).forService('hook', 'team', 443)), 'hook.team.svc');
  assert.equal(who(resolver(['*.team.svc']).forService('hook', 'team', 443)), '*.team.svc');
  assert.equal(who(resolver(['me'], 'me').forService('hook', 'team', 443)), 'me');
  assert.equal(who(resolver([]).forService('hook', 'team', 443)), 'anonymous');
});

test('a URL is matched by its host and port, 443 when it names none', () => {
  assert.equal(who(resolver(['127.0.0.1:9443', '*']).forURL(new URL('https://127.0.0.1:9443/x'))), '127.0.0.1:9443');
  assert.equal(who(resolver(['hooks.example.com', '*']).forURL(new URL('https://hooks.example.com/x'))), 'hooks.example.com');
  assert.equal(who(resolver(['*.example.com:443']).forURL(new URL('https://a.example.com/x'))), '*.example.com:443');
  assert.equal(who(resolver(['*']).forURL(new URL('https://a.example.com:8443/x'))), '*');
});

test('WebhookAdmissionConfiguration names an absolute kubeconfig path, in our group or upstream\'s', () => {
  assert.equal(webhookKubeconfigFile(undefined, 'orch.io'), '');
  assert.equal(webhookKubeconfigFile({ apiVersion: 'apiserver.config.orch.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: '/etc/kc' }, 'orch.io'), '/etc/kc');
  assert.equal(webhookKubeconfigFile({ apiVersion: 'apiserver.config.k8s.io/v1alpha1', kind: 'WebhookAdmission', kubeConfigFile: '/etc/kc' }, 'orch.io'), '/etc/kc');
  assert.throws(() => webhookKubeconfigFile({ apiVersion: 'apiserver.config.orch.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: 'kc' }, 'orch.io'), /kubeConfigFile: Invalid value: "kc": must be an absolute file path/);
  assert.throws(() => webhookKubeconfigFile({ apiVersion: 'apiserver.config.orch.io/v1', kind: 'Other', kubeConfigFile: '/kc' }, 'orch.io'), /no kind "Other" is registered/);
  assert.throws(() => webhookKubeconfigFile({ kubeConfigFile: '/kc' }, 'orch.io'), /Object 'Kind' is missing/);
});
