// PodSecurity admission through the real server: pods of each level against namespaces enforcing
// each level (and pinned older versions where a check differs), the Warning headers the client
// reads, the audit annotations in the audit log, the pod templates of workloads warned but
// created, exemptions and defaults from the PodSecurityConfiguration in
// --admission-control-config-file, the namespace relabel dry run over existing pods, invalid labels
// refused, and what a user of stock kubectl sees.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { defaultAdmissionOptions } from '../../cmd/apiserver/app/admission-options.js';
import { defaultAuditOptions } from '../../cmd/apiserver/app/audit-options.js';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { startEtcd, type TestEtcd } from './framework/etcd.js';
import { pollUntil } from './framework/authentication.js';
import type { Client, Response } from './framework/client.js';
import { Kubectl } from './framework/kubectl.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';

const apiserverBinary = join(resolve(fileURLToPath(import.meta.url), '../../../../..'), '_output/bin/apiserver');
const label = (mode: string) => `pod-security.orch.io/${mode}`;
const annotation = (key: string) => `pod-security.orch.io/${key}`;

const container = (securityContext?: Record<string, unknown>) => ({ name: 'app', image: 'registry.example/app:1', ...(securityContext ? { securityContext } : {}) });
/** Pod specs of each level: the first breaks baseline (host network, a hostPath volume, an added capability). */
const specs = {
  privileged: { hostNetwork: true, volumes: [{ name: 'host', hostPath: { path: '/var/log' } }], containers: [container({ capabilities: { add: ['SYS_ADMIN'] } })] },
  baseline: { containers: [container()] },
  restricted: {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [container({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } })],
  },
};
const pod = (name: string, spec: Record<string, unknown>) => ({ metadata: { name }, spec });

const restrictedDetails = 'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';
const restrictedReasons = 'allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile';

/** The texts of a response's Warning headers. */
function warnings(r: Response): string[] {
  const h = r.headers['warning'];
  const values = Array.isArray(h) ? h : h ? h.split(/,\s*(?=299 - ")/) : [];
  return values.map((v) => {
    const m = /^299 - "(.*)"$/.exec(v.trim());
    assert.ok(m, `a warning header: ${v}`);
    return m[1]!.replace(/\\(["\\])/g, '$1');
  });
}

const auditPolicy = `apiVersion: audit.orch.io/v1
kind: Policy
rules:
- level: Metadata
  resources:
  - group: ""
    resources: [pods, namespaces]
  - group: apps
    resources: [deployments]
- level: None
`;

/** An AdmissionConfiguration giving PodSecurity a PodSecurityConfiguration with `body` (YAML at its indentation). */
const admissionConfig = (body: string) => `apiVersion: apiserver.config.orch.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  configuration:
    apiVersion: pod-security.admission.config.orch.io/v1
    kind: PodSecurityConfiguration
${body}`;

describe('PodSecurity admission', () => {
  let t: TestServer;
  let dir: string;
  let admin: Client;
  let kc: Kubeconfig;

  /** The audit event of the request whose answer this was, once written. */
  const auditEvent = async (r: Response): Promise<Record<string, any>> => (await pollUntil(async () => {
    const id = r.headers['audit-id'];
    const lines = readFileSync(join(dir, 'audit.log'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
    return lines.find((e) => e.auditID === id && e.stage === 'ResponseComplete');
  }, (e) => e !== undefined, `the audit event of ${r.headers['audit-id']}`))!;

  /** Creates a namespace with these labels and its default service account. */
  async function namespace(name: string, labels: Record<string, string> = {}): Promise<Response> {
    const r = await admin.post('/api/v1/namespaces', { metadata: { name, labels } });
    assert.equal(r.status, 201, r.text);
    await ensureDefaultServiceAccount(admin, name);
    return r;
  }
  const podsOf = (ns: string) => `/api/v1/namespaces/${ns}/pods`;
  const absent = async (ns: string, name: string) => assert.equal((await admin.get(`${podsOf(ns)}/${name}`)).status, 404, `${ns}/${name} was not stored`);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-psa-'));
    writeFileSync(join(dir, 'tokens.csv'), 'admin-token,admin,1,"system:masters"\nbot-token,ci-bot,2\n');
    writeFileSync(join(dir, 'policy.yaml'), auditPolicy);
    writeFileSync(join(dir, 'admission.yaml'), admissionConfig(`    defaults:\n      audit: baseline\n    exemptions:\n      usernames: [ci-bot]\n      namespaces: [psa-exempt]\n      runtimeClasses: [psa-exempt-rc]\n`));
    t = await startTestServer({
      authentication: { ...defaultAuthenticationOptions(), tokenAuthFile: join(dir, 'tokens.csv') },
      audit: { ...defaultAuditOptions(), policyFile: join(dir, 'policy.yaml'), logPath: join(dir, 'audit.log') },
      admission: { ...defaultAdmissionOptions(), configFile: join(dir, 'admission.yaml') },
    });
    admin = t.client.withToken('admin-token');
    kc = writeKubeconfig(t, 'admin-token');
  });
  after(async () => {
    kc?.remove();
    await t?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('pods of each level against namespaces enforcing each level: admitted, or refused with upstream\'s message', async () => {
    const refusals: Record<string, Record<string, string | undefined>> = {
      privileged: { privileged: undefined, baseline: undefined, restricted: undefined },
      baseline: {
        privileged: 'violates PodSecurity "baseline:latest": non-default capabilities (container "app" must not include "SYS_ADMIN" in securityContext.capabilities.add), ' +
          'host namespaces (hostNetwork=true), hostPath volumes (volume "host")',
        baseline: undefined,
        restricted: undefined,
      },
      restricted: {
        privileged: 'violates PodSecurity "restricted:latest": host namespaces (hostNetwork=true), ' +
          'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), ' +
          'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]; container "app" must not include "SYS_ADMIN" in securityContext.capabilities.add), ' +
          'restricted volume types (volume "host" uses restricted volume type "hostPath"), ' +
          'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), ' +
          'seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
        baseline: `violates PodSecurity "restricted:latest": ${restrictedDetails}`,
        restricted: undefined,
      },
    };
    for (const [level, byPod] of Object.entries(refusals)) {
      const ns = `psa-${level}`;
      await namespace(ns, { [label('enforce')]: level });
      for (const [podLevel, refusal] of Object.entries(byPod)) {
        const name = `${podLevel}-pod`;
        for (const q of ['?dryRun=All', '']) {
          const r = await admin.post(`${podsOf(ns)}${q}`, pod(name, specs[podLevel as keyof typeof specs]));
          if (refusal === undefined) {
            assert.equal(r.status, 201, `${name} in ${ns}${q}: ${r.text}`);
            continue;
          }
          assertStatus(r, 403, 'Forbidden');
          assert.equal(r.body.message, `pods "${name}" is forbidden: ${refusal}`, `${name} in ${ns}${q}`);
          assert.deepEqual(r.body.details, { name, group: '', kind: 'pods' });
          assert.deepEqual(warnings(r), [], 'a refused pod gets no warning');
        }
        if (refusal !== undefined) await absent(ns, name);
      }
    }
  });

  test('a pinned version evaluates the checks of that version: runAsUser=0 before v1.23, the sysctls before v1.29', async () => {
    const rootUser = { ...specs.restricted, securityContext: { ...specs.restricted.securityContext, runAsUser: 0 } };
    await namespace('psa-restricted-v1-22', { [label('enforce')]: 'restricted', [label('enforce-version')]: 'v1.22' });
    assert.equal((await admin.post(podsOf('psa-restricted-v1-22'), pod('root', rootUser))).status, 201);
    const latest = await admin.post(podsOf('psa-restricted'), pod('root', rootUser));
    assertStatus(latest, 403, 'Forbidden');
    assert.equal(latest.body.message, 'pods "root" is forbidden: violates PodSecurity "restricted:latest": runAsUser=0 (pod must not set runAsUser=0)');

    const keepalive = { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_keepalive_time', value: '600' }] }, containers: [container()] };
    await namespace('psa-baseline-v1-28', { [label('enforce')]: 'baseline', [label('enforce-version')]: 'v1.28' });
    const old = await admin.post(podsOf('psa-baseline-v1-28'), pod('keepalive', keepalive));
    assertStatus(old, 403, 'Forbidden');
    assert.equal(old.body.message, 'pods "keepalive" is forbidden: violates PodSecurity "baseline:v1.28": forbidden sysctls (net.ipv4.tcp_keepalive_time)');
    assert.equal((await admin.post(podsOf('psa-baseline'), pod('keepalive', keepalive))).status, 201);
  });

  test('the warn level: the pod is created and the client reads upstream\'s warning', async () => {
    await namespace('psa-warn', { [label('warn')]: 'restricted' });
    const r = await admin.post(podsOf('psa-warn'), pod('warned', specs.baseline));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(warnings(r), [`would violate PodSecurity "restricted:latest": ${restrictedDetails}`]);
    const quiet = await admin.post(podsOf('psa-warn'), pod('quiet', specs.restricted));
    assert.equal(quiet.status, 201, quiet.text);
    assert.deepEqual(warnings(quiet), []);
    // A label change is judged, an image change is judged, nothing else of a pod is.
    const relabelled = await admin.patch(`${podsOf('psa-warn')}/warned`, { metadata: { labels: { touched: 'yes' } } });
    assert.equal(relabelled.status, 200, relabelled.text);
    assert.deepEqual(warnings(relabelled), []);
    const newImage = await admin.patch(`${podsOf('psa-warn')}/warned`, { spec: { containers: [{ name: 'app', image: 'registry.example/app:2' }] } }, 'application/strategic-merge-patch+json');
    assert.equal(newImage.status, 200, newImage.text);
    assert.deepEqual(warnings(newImage), [`would violate PodSecurity "restricted:latest": ${restrictedDetails}`]);
  });

  test('audit annotations: the enforced policy, the audit level\'s violations (the configured default too), on refusals too', async () => {
    await namespace('psa-audit', { [label('enforce')]: 'baseline', [label('audit')]: 'restricted' });
    const ok = await admin.post(podsOf('psa-audit'), pod('audited', specs.baseline));
    assert.equal(ok.status, 201, ok.text);
    const e = await auditEvent(ok);
    assert.equal(e.annotations[annotation('enforce-policy')], 'baseline:latest');
    assert.equal(e.annotations[annotation('audit-violations')], `would violate PodSecurity "restricted:latest": ${restrictedDetails}`);

    const refused = await admin.post(podsOf('psa-audit'), pod('refused', specs.privileged));
    assertStatus(refused, 403, 'Forbidden');
    const re = await auditEvent(refused);
    assert.equal(re.responseStatus.code, 403);
    assert.equal(re.annotations[annotation('enforce-policy')], 'baseline:latest');
    assert.match(re.annotations[annotation('audit-violations')], /^would violate PodSecurity "restricted:latest": host namespaces \(hostNetwork=true\), /);

    // No labels: the configuration's default audit level (baseline) applies, and nothing is enforced.
    await namespace('psa-defaults');
    const host = await admin.post(podsOf('psa-defaults'), pod('host', specs.privileged));
    assert.equal(host.status, 201, host.text);
    assert.deepEqual(warnings(host), []);
    const he = await auditEvent(host);
    assert.equal(he.annotations[annotation('enforce-policy')], 'privileged:latest');
    assert.equal(he.annotations[annotation('audit-violations')], 'would violate PodSecurity "baseline:latest": non-default capabilities ' +
      '(container "app" must not include "SYS_ADMIN" in securityContext.capabilities.add), host namespaces (hostNetwork=true), hostPath volumes (volume "host")');
  });

  test('a Deployment\'s pod template is warned about and audited, and the Deployment is created', async () => {
    const deployment = {
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: specs.privileged } },
    };
    const r = await admin.post('/apis/apps/v1/namespaces/psa-restricted/deployments', deployment);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(warnings(r), [`would violate PodSecurity "restricted:latest": host namespaces (hostNetwork=true), ` +
      'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), ' +
      'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]; container "app" must not include "SYS_ADMIN" in securityContext.capabilities.add), ' +
      'restricted volume types (volume "host" uses restricted volume type "hostPath"), ' +
      'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), ' +
      'seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")']);
    assert.equal((await admin.get('/apis/apps/v1/namespaces/psa-restricted/deployments/web')).status, 200);
    const e = await auditEvent(r);
    assert.equal(e.annotations[annotation('audit-violations')], 'would violate PodSecurity "baseline:latest": non-default capabilities ' +
      '(container "app" must not include "SYS_ADMIN" in securityContext.capabilities.add), host namespaces (hostNetwork=true), hostPath volumes (volume "host")');
    assert.equal(e.annotations[annotation('enforce-policy')], undefined, 'templates are never enforced');
    const clean = await admin.post('/apis/apps/v1/namespaces/psa-restricted/deployments', { ...deployment, metadata: { name: 'clean' }, spec: { ...deployment.spec, template: { ...deployment.spec.template, spec: specs.restricted } } });
    assert.equal(clean.status, 201, clean.text);
    assert.deepEqual(warnings(clean), []);
  });

  test('exemptions from the configuration file: a namespace (told its labels are ignored), a user, a runtime class', async () => {
    const created = await namespace('psa-exempt', { [label('enforce')]: 'restricted' });
    assert.deepEqual(warnings(created), ['namespace "psa-exempt" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored']);
    const inExempt = await admin.post(podsOf('psa-exempt'), pod('host', specs.privileged));
    assert.equal(inExempt.status, 201, inExempt.text);
    assert.equal((await auditEvent(inExempt)).annotations[annotation('exempt')], 'namespace');

    const bot = t.client.withToken('bot-token');
    const byBot = await bot.post(podsOf('psa-restricted'), pod('by-bot', specs.privileged));
    assert.equal(byBot.status, 201, byBot.text);
    assert.equal((await auditEvent(byBot)).annotations[annotation('exempt')], 'user');
    const notBot = await admin.post(podsOf('psa-restricted'), pod('by-admin', specs.privileged));
    assertStatus(notBot, 403, 'Forbidden');

    const rc = await admin.post('/apis/node.orch.io/v1/runtimeclasses', { metadata: { name: 'psa-exempt-rc' }, handler: 'kata' });
    assert.equal(rc.status, 201, rc.text);
    const sandboxed = pod('sandboxed', { ...specs.privileged, runtimeClassName: 'psa-exempt-rc' });
    // The RuntimeClass plug-in reads the class from its cache: wait until a dry run finds it.
    await pollUntil(() => admin.post(`${podsOf('psa-restricted')}?dryRun=All`, sandboxed), (x) => x.status === 201, 'the runtime class to be known');
    const r = await admin.post(podsOf('psa-restricted'), sandboxed);
    assert.equal(r.status, 201, r.text);
    assert.equal((await auditEvent(r)).annotations[annotation('exempt')], 'runtimeClass');
  });

  test('a stricter enforce label is dry-run over the namespace\'s pods: the change is made, with upstream\'s warnings', async () => {
    await namespace('psa-relabel');
    for (const name of ['web-2', 'web-1']) assert.equal((await admin.post(podsOf('psa-relabel'), pod(name, specs.baseline))).status, 201);
    assert.equal((await admin.post(podsOf('psa-relabel'), pod('host-1', { ...specs.restricted, hostNetwork: true }))).status, 201);
    const expected = [
      'existing pods in namespace "psa-relabel" violate the new PodSecurity enforce level "restricted:latest"',
      'host-1: host namespaces',
      `web-1 (and 1 other pod): ${restrictedReasons}`,
    ];
    const relabel = { metadata: { labels: { [label('enforce')]: 'restricted' } } };
    // PodSecurity reads the pods from its cache: wait until a dry run sees all three.
    await pollUntil(() => admin.patch('/api/v1/namespaces/psa-relabel?dryRun=All', relabel), (r) => r.status === 200 && warnings(r).length === 3, 'the pods to be seen');
    const r = await admin.patch('/api/v1/namespaces/psa-relabel', relabel);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(warnings(r), expected);
    assert.equal(r.body.metadata.labels[label('enforce')], 'restricted', 'the label is set all the same');
    // Loosening it tries nothing.
    const looser = await admin.patch('/api/v1/namespaces/psa-relabel?dryRun=All', { metadata: { labels: { [label('enforce')]: 'baseline' } } });
    assert.deepEqual([looser.status, warnings(looser)], [200, []]);
    // Once the namespace cache has the label, new pods like the old are refused.
    const refused = await pollUntil(() => admin.post(`${podsOf('psa-relabel')}?dryRun=All`, pod('web-3', specs.baseline)), (x) => x.status === 403, 'the label to be enforced');
    assert.equal(refused.body.message, `pods "web-3" is forbidden: violates PodSecurity "restricted:latest": ${restrictedDetails}`);
  });

  test('an ephemeral container is judged when added through the ephemeralcontainers sub-resource', async () => {
    const path = `${podsOf('psa-baseline')}/debugged`;
    assert.equal((await admin.post(podsOf('psa-baseline'), pod('debugged', specs.baseline))).status, 201);
    const withDebugger = async (securityContext?: Record<string, unknown>) => {
      const current = (await admin.get(path)).body;
      const debug = { name: 'debug', image: 'busybox', ...(securityContext ? { securityContext } : {}) };
      return admin.put(`${path}/ephemeralcontainers`, { ...current, spec: { ...current.spec, ephemeralContainers: [debug] } });
    };
    const refused = await withDebugger({ capabilities: { add: ['SYS_PTRACE'] } });
    assertStatus(refused, 403, 'Forbidden');
    assert.equal(refused.body.message, 'pods "debugged" is forbidden: violates PodSecurity "baseline:latest": non-default capabilities ' +
      '(container "debug" must not include "SYS_PTRACE" in securityContext.capabilities.add)');
    const added = await withDebugger();
    assert.equal(added.status, 200, added.text);
    assert.equal(added.body.spec.ephemeralContainers[0].name, 'debug');
  });

  test('invalid Pod Security labels on a namespace are refused as Invalid', async () => {
    const bad = await admin.post('/api/v1/namespaces', { metadata: { name: 'psa-invalid', labels: { [label('enforce')]: 'strict' } } });
    assertStatus(bad, 422, 'Invalid');
    assert.equal(bad.body.message, 'Namespace "psa-invalid" is invalid: metadata.labels[pod-security.orch.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted');
    assert.deepEqual(bad.body.details.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: "strict": must be one of privileged, baseline, restricted', field: 'metadata.labels[pod-security.orch.io/enforce]' }]);
    assert.equal((await admin.get('/api/v1/namespaces/psa-invalid')).status, 404);
    const version = await admin.patch('/api/v1/namespaces/psa-warn', { metadata: { labels: { [label('warn-version')]: 'v2.0' } } });
    assertStatus(version, 422, 'Invalid');
    assert.equal(version.body.message, 'Namespace "psa-warn" is invalid: metadata.labels[pod-security.orch.io/warn-version]: Invalid value: "v2.0": must be "latest" or "v1.x"');
  });

  test('stock kubectl shows the user the refusal and the warnings', async () => {
    const kubectl = new Kubectl(kc);
    const manifest = (name: string, ns: string) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, spec: specs.baseline });
    const refused = await kubectl.run(['apply', '-f', '-'], { input: manifest('kubectl-web', 'psa-restricted') });
    assert.equal(refused.code, 1, refused.describe());
    assert.equal(refused.stderr.trim(), 'Error from server (Forbidden): error when creating "STDIN": pods "kubectl-web" is forbidden: ' +
      `violates PodSecurity "restricted:latest": ${restrictedDetails}`);

    const warned = await kubectl.ok(['create', '-f', '-'], { input: manifest('kubectl-warned', 'psa-warn') });
    assert.equal(warned.stdout.trim(), 'pod/kubectl-warned created');
    assert.equal(warned.stderr.trim(), `Warning: would violate PodSecurity "restricted:latest": ${restrictedDetails}`);

    await namespace('psa-kubectl');
    await kubectl.ok(['create', '-f', '-'], { input: manifest('kubectl-pod', 'psa-kubectl') });
    const labelArgs = ['label', 'namespace', 'psa-kubectl', `${label('enforce')}=restricted`];
    await pollUntil(() => kubectl.run([...labelArgs, '--dry-run=server']), (x) => x.code === 0 && x.stderr.includes('kubectl-pod'), 'the pod to be seen');
    const labelled = await kubectl.ok(labelArgs);
    assert.equal(labelled.stdout.trim(), 'namespace/psa-kubectl labeled');
    assert.deepEqual(labelled.stderr.trim().split('\n'), [
      'Warning: existing pods in namespace "psa-kubectl" violate the new PodSecurity enforce level "restricted:latest"',
      `Warning: kubectl-pod: ${restrictedReasons}`,
    ]);
  });
});

describe('PodSecurity configuration errors', () => {
  let etcd: TestEtcd;
  let dir: string;
  before(async () => {
    etcd = await startEtcd();
    dir = mkdtempSync(join(tmpdir(), 'orch-psa-config-'));
  });
  after(async () => {
    await etcd?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the server refuses to start with upstream\'s errors for a configuration that does not decode or is invalid', () => {
    const start = (configuration: string) => {
      const file = join(dir, 'admission.yaml');
      writeFileSync(file, admissionConfig(configuration));
      return spawnSync(apiserverBinary, ['--etcd-servers', etcd.endpoint, '--secure-port', '0', '--workers', '1', '--cert-dir', dir, '--admission-control-config-file', file], { encoding: 'utf8', timeout: 60_000 });
    };
    // The log line quotes the error as klog does: its quotes escaped.
    const unknown = start('    defaults:\n      enfroce: restricted\n');
    assert.equal(unknown.status, 1, unknown.stderr);
    assert.ok(unknown.stderr.includes('couldn\'t init admission plugin \\"PodSecurity\\": strict decoding error: unknown field \\"defaults.enfroce\\"'), unknown.stderr);
    const invalid = start('    exemptions:\n      namespaces: [Tools, tools, tools]\n');
    assert.equal(invalid.status, 1, invalid.stderr);
    assert.match(invalid.stderr.replaceAll('\\"', '"'), /failed to initialize admission plugin "PodSecurity": PodSecurity invalid: \[exemptions.namespaces\[0\]: Invalid value: "Tools": a lowercase RFC 1123 label must consist of .*, exemptions.namespaces\[2\]: Duplicate value: "tools"\]/);
  });
});
