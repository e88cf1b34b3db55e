// --use-service-account-credentials against a real API server with RBAC and the TokenRequest API:
// the manager's own user holds only upstream's system:kube-controller-manager role (it may make
// service accounts and ask for their tokens, and may not create ReplicaSets or empty namespaces),
// and with the flag the deployment and namespace controllers still do their work, each as its own
// service account in the system namespace, which the audit log names as the writer.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { defaultAuditOptions } from '../../cmd/apiserver/app/audit-options.js';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { defaultOptions, systemNamespace } from '../../cmd/controller-manager/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../cmd/controller-manager/app/server.js';
import { generateTestKeyPair, tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import { Client, isNotFound } from '../../pkg/client/index.js';
import { Logger } from '../../pkg/log/logger.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';

interface AuditEvent { verb?: string; user?: { username?: string }; objectRef?: { resource?: string; namespace?: string; name?: string }; responseStatus?: { code?: number }; stage?: string }

describe('controller manager --use-service-account-credentials', () => {
  const files = tempFiles('orch-sa-credentials-');
  const auditLog = files.write('audit.log', '');
  let t: TestServer;
  let admin: Client;
  let managerKc: Kubeconfig;
  let cm: RunningControllerManager;

  before(async () => {
    const signing = generateTestKeyPair('rsa');
    t = await startTestServer({
      authentication: {
        ...defaultAuthenticationOptions(),
        tokenAuthFile: files.write('tokens.csv', 'manager-token,limited-manager,1\nadmin-token,admin,2,"system:masters"\n'),
        serviceAccountIssuers: ['https://orch.test'],
        serviceAccountKeyFiles: [files.write('sa.pub', signing.publicPem)],
        serviceAccountSigningKeyFile: files.write('sa.key', signing.pkcs8Pem),
      },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
      audit: { ...defaultAuditOptions(), policyFile: files.write('policy.yaml', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n'), logPath: auditLog },
    });
    const adminKc = writeKubeconfig(t, 'admin-token');
    admin = Client.fromKubeconfig(adminKc.path).client;
    adminKc.remove();
    // The manager's user gets upstream's manager role and nothing of the controllers' roles.
    await pollUntil(async () => {
      try {
        await admin.resource('rbac.authorization.orch.io', 'v1', 'clusterrolebindings').create({
          metadata: { name: 'limited-manager' }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'system:kube-controller-manager' },
          subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'limited-manager' }],
        } as never);
        return true;
      } catch (e) {
        return String(e);
      }
    }, (ok) => ok === true, 'the limited manager bound to system:kube-controller-manager');
    managerKc = writeKubeconfig(t, 'manager-token');
  });
  after(async () => {
    await cm?.stop();
    admin?.close();
    managerKc?.remove();
    await t?.stop();
    files.remove();
  });

  /** Whether the manager's own user may `verb` `resource` (a SelfSubjectAccessReview as that user). */
  const managerMay = async (verb: string, group: string, resource: string, namespace = 'default') => {
    const manager = Client.fromKubeconfig(managerKc.path).client;
    try {
      const r = await manager.request('POST', '/apis/authorization.orch.io/v1/selfsubjectaccessreviews', {
        apiVersion: 'authorization.orch.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb, group, resource, namespace } },
      }) as { status?: { allowed?: boolean } };
      return r.status?.allowed === true;
    } finally {
      manager.close();
    }
  };

  const audited = (): AuditEvent[] => readFileSync(auditLog, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as AuditEvent);
  const writer = (verb: string, resource: string, namespace: string) => pollUntil(
    async () => audited().find((e) => e.stage === 'ResponseComplete' && e.verb === verb && e.objectRef?.resource === resource && e.objectRef.namespace === namespace && (e.responseStatus?.code ?? 0) < 300),
    (e) => e !== undefined, `an audited ${verb} of ${resource} in ${namespace}`, 15_000,
  ).then((e) => e!.user?.username);

  test("the manager's own user may not do the controllers' work", async () => {
    assert.equal(await managerMay('create', 'apps', 'replicasets'), false);
    assert.equal(await managerMay('deletecollection', '', 'configmaps'), false);
    assert.equal(await managerMay('create', '', 'serviceaccounts/token', systemNamespace), true);
  });

  test('with the flag each controller works as its own service account, made when missing', async () => {
    cm = await runControllerManager({
      ...defaultOptions(), kubeconfig: managerKc.path, securePort: 0, bindAddress: '127.0.0.1', leaderElect: false,
      useServiceAccountCredentials: true, controllers: ['deployment', 'namespace'],
    }, new Logger(2, (l) => {
      if (process.env.ORCH_TEST_LOG) process.stderr.write(l);
    }));

    await admin.resource('', 'v1', 'namespaces').create({ metadata: { name: 'sa-creds' } });
    await admin.resource('apps', 'v1', 'deployments').namespace('sa-creds').create({
      metadata: { name: 'web' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    } as never);
    await pollUntil(() => admin.resource('apps', 'v1', 'replicasets').namespace('sa-creds').list(), (l) => l.items.length === 1, 'the ReplicaSet of the Deployment', 30_000);
    assert.equal(await writer('create', 'replicasets', 'sa-creds'), `system:serviceaccount:${systemNamespace}:deployment-controller`);

    await admin.resource('', 'v1', 'configmaps').namespace('sa-creds').create({ metadata: { name: 'left-behind' } });
    await admin.resource('', 'v1', 'namespaces').delete('sa-creds');
    await pollUntil(async () => {
      try {
        await admin.resource('', 'v1', 'namespaces').get('sa-creds');
        return false;
      } catch (e) {
        if (isNotFound(e)) return true;
        throw e;
      }
    }, (gone) => gone, 'the namespace deleted with its contents', 30_000);
    assert.equal(await writer('deletecollection', 'configmaps', 'sa-creds'), `system:serviceaccount:${systemNamespace}:namespace-controller`);

    const accounts = (await admin.resource('', 'v1', 'serviceaccounts').namespace(systemNamespace).list()).items.map((a) => a.metadata.name);
    for (const name of ['deployment-controller', 'namespace-controller']) assert.ok(accounts.includes(name), `service account ${name} made: ${accounts.join(', ')}`);
  });
});
