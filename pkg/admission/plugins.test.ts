import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinPlugins } from './builtin.js';
import { AllOrderedPlugins, DefaultOnPlugins, defaultOffPlugins, enabledAdmissionPlugins, parsePluginList, validateAdmissionPluginFlags } from './plugins.js';

// kube-apiserver 1.30's recommended set less ClusterTrustBundleAttest, which guards an API this
// server does not serve.
const recommended = [
  'NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'PodSecurity', 'Priority',
  'DefaultTolerationSeconds', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'PersistentVolumeClaimResize',
  'RuntimeClass', 'CertificateApproval', 'CertificateSigning', 'CertificateSubjectRestriction',
  'DefaultIngressClass', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota',
];
const runnable = builtinPlugins().registered();

test('with no flags the recommended set the server can run runs, in upstream order', () => {
  // The order kube-apiserver 1.30 --help lists as "enabled by default".
  assert.deepEqual(enabledAdmissionPlugins({}), recommended);
  assert.equal(DefaultOnPlugins.size, recommended.length);
  for (const p of DefaultOnPlugins) assert.ok(AllOrderedPlugins.includes(p), p);
});

test('every plug-in on by default is registered, and every registered one is a known name', () => {
  for (const p of DefaultOnPlugins) assert.ok(runnable.includes(p), `${p} is on by default but not registered`);
  for (const p of runnable) assert.ok(AllOrderedPlugins.includes(p), `${p} is registered but not known`);
  assert.deepEqual(validateAdmissionPluginFlags({}, runnable), []);
});

test('a plug-in left on that the server cannot run is refused, named as the flag that turned it on', () => {
  const only = ['NamespaceLifecycle', 'ResourceQuota'];
  assert.deepEqual(validateAdmissionPluginFlags({ enable: ['ValidatingAdmissionPolicy', 'ClusterTrustBundleAttest', 'PersistentVolumeLabel'] }, runnable), [
    'enable-admission-plugins plugin "PersistentVolumeLabel" is not implemented by this server',
    'enable-admission-plugins plugin "ClusterTrustBundleAttest" is not implemented by this server',
  ]);
  assert.deepEqual(validateAdmissionPluginFlags({ admissionControl: ['ResourceQuota', 'PersistentVolumeLabel'] }, only), [
    'admission-control plugin "PersistentVolumeLabel" is not implemented by this server',
  ]);
  // The default set of a server short of code names what it lacks; disabling it is the way out.
  assert.deepEqual(validateAdmissionPluginFlags({ disable: recommended.filter((p) => !only.includes(p) && p !== 'LimitRanger') }, only), [
    'default admission plugin "LimitRanger" is not implemented by this server',
  ]);
  assert.deepEqual(validateAdmissionPluginFlags({ disable: recommended.filter((p) => !only.includes(p)) }, only), []);
  // Without the server's code (the main thread of --workers) only the names are checked; unknown names are reported alone.
  assert.deepEqual(validateAdmissionPluginFlags({ enable: ['ClusterTrustBundleAttest'] }), []);
  assert.deepEqual(validateAdmissionPluginFlags({ enable: ['Bogus', 'PersistentVolumeLabel'] }, runnable), ['enable-admission-plugins plugin "Bogus" is unknown']);
});

test('the webhooks, ResourceQuota and AlwaysDeny run last; every name is known once', () => {
  assert.deepEqual(AllOrderedPlugins.slice(-5), ['MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota', 'AlwaysDeny']);
  assert.equal(new Set(AllOrderedPlugins).size, AllOrderedPlugins.length);
  assert.ok(defaultOffPlugins().includes('AlwaysPullImages'));
  assert.ok(defaultOffPlugins().includes('SecurityContextDeny'));
  assert.ok(!defaultOffPlugins().includes('ServiceAccount'));
});

test('enabling adds to the recommended set in the fixed order, whatever order the flag names them', () => {
  const a = enabledAdmissionPlugins({ enable: ['PodTolerationRestriction', 'AlwaysPullImages', 'NamespaceExists'] });
  const b = enabledAdmissionPlugins({ enable: ['NamespaceExists', 'PodTolerationRestriction', 'AlwaysPullImages'] });
  assert.deepEqual(a, b);
  assert.deepEqual(a.slice(0, 7), ['NamespaceLifecycle', 'NamespaceExists', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'AlwaysPullImages', 'PodSecurity']);
  assert.ok(a.indexOf('PodTolerationRestriction') > a.indexOf('DefaultTolerationSeconds'));
  assert.ok(a.indexOf('PodTolerationRestriction') < a.indexOf('MutatingAdmissionWebhook'));
});

test('disabling removes recommended plug-ins; enabling a recommended one changes nothing', () => {
  const got = enabledAdmissionPlugins({ disable: ['ServiceAccount', 'ResourceQuota'], enable: ['Priority'] });
  assert.deepEqual(got, recommended.filter((p) => p !== 'ServiceAccount' && p !== 'ResourceQuota'));
});

test('the deprecated --admission-control runs exactly its names in the fixed order', () => {
  assert.deepEqual(enabledAdmissionPlugins({ admissionControl: ['ResourceQuota', 'NamespaceLifecycle', 'AlwaysAdmit'] }), ['AlwaysAdmit', 'NamespaceLifecycle', 'ResourceQuota']);
  assert.deepEqual(enabledAdmissionPlugins({ admissionControl: [] }), []);
});

test('flag values: comma lists, repeated flags appended, names not trimmed, empty is none', () => {
  assert.equal(parsePluginList(undefined), undefined);
  assert.deepEqual(parsePluginList(''), []);
  assert.deepEqual(parsePluginList('A,B'), ['A', 'B']);
  assert.deepEqual(parsePluginList(['A', 'B,C']), ['A', 'B', 'C']);
  assert.deepEqual(parsePluginList('A, B'), ['A', ' B']);
});

test('unknown names are refused with kube-apiserver\'s messages, each flag named', () => {
  assert.deepEqual(validateAdmissionPluginFlags({ enable: ['Priority', 'Bogus'], disable: ['Nope'] }), [
    'enable-admission-plugins plugin "Bogus" is unknown',
    'disable-admission-plugins plugin "Nope" is unknown',
  ]);
  assert.deepEqual(validateAdmissionPluginFlags({ enable: parsePluginList('Priority, ResourceQuota') }), [
    'enable-admission-plugins plugin " ResourceQuota" is unknown',
  ]);
  assert.deepEqual(validateAdmissionPluginFlags({ enable: ['priority'] }), ['enable-admission-plugins plugin "priority" is unknown']);
  assert.deepEqual(validateAdmissionPluginFlags({ admissionControl: ['X'] }), ['admission-control plugin "X" is unknown']);
});

test('a plug-in both enabled and disabled is refused, names sorted as Go prints them', () => {
  assert.deepEqual(validateAdmissionPluginFlags({ enable: ['ServiceAccount', 'AlwaysPullImages', 'Priority'], disable: ['Priority', 'AlwaysPullImages'] }), [
    '[AlwaysPullImages Priority] in enable-admission-plugins and disable-admission-plugins overlapped',
  ]);
});

test('--admission-control with either new flag is refused; valid flags give no error', () => {
  assert.deepEqual(validateAdmissionPluginFlags({ admissionControl: ['AlwaysAdmit'], disable: [] }), [
    'admission-control and enable-admission-plugins/disable-admission-plugins flags are mutually exclusive',
  ]);
  assert.deepEqual(validateAdmissionPluginFlags({}), []);
  assert.deepEqual(validateAdmissionPluginFlags({ enable: ['AlwaysPullImages'], disable: ['ServiceAccount'] }), []);
});

test('a caller with its own order enables within it', () => {
  assert.deepEqual(enabledAdmissionPlugins({ enable: ['AlwaysPullImages'] }, ['AlwaysPullImages', 'NamespaceLifecycle', 'NamespaceExists']), ['AlwaysPullImages', 'NamespaceLifecycle']);
});
