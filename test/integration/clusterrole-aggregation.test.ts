// The clusterrole-aggregation controller in-process against a real API server with RBAC: a role
// labelled for the built-in aggregation (aggregate-to-edit) shows up in edit and, through edit, in
// admin, and a user bound to edit gains it (SubjectAccessReview); a custom aggregate gathers the
// rules of the roles its selector picks in name order without repeats, and follows when a picked
// role changes or stops being picked, which a real request of the bound user sees.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import type { KubeObject } from '../../pkg/client/index.js';
import { clusterroleAggregationController } from '../../pkg/controller/clusterroleaggregation/controller.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import type { Client } from './framework/client.js';
import { runControllers, type RunningControllers } from './framework/in-process-controller.js';

const G = 'rbac.authorization.orch.io';
const RBAC = `/apis/${G}/v1`;
interface Rule { verbs: string[]; apiGroups?: string[]; resources?: string[] }
type Role = KubeObject & { rules?: Rule[] };

describe('clusterrole-aggregation controller', () => {
  let dir: string;
  let t: TestServer;
  let cm: RunningControllers;
  let admin: Client;
  let jane: Client;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-cra-'));
    // The in-process controllers use orch-test-token: they need the powers of the real manager.
    writeFileSync(join(dir, 'tokens.csv'), 'orch-test-token,controller-manager,1,"system:masters"\njane-token,jane,2,"devs"\n');
    t = await startTestServer({
      authentication: { ...defaultAuthenticationOptions(), tokenAuthFile: join(dir, 'tokens.csv') },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
    });
    admin = t.client.withToken('orch-test-token');
    jane = t.client.withToken('jane-token');
    await pollUntil(() => t.client.get('/readyz'), (r) => r.status === 200, 'the bootstrap policy');
    cm = await runControllers(t, [clusterroleAggregationController]);
  });
  after(async () => {
    await cm?.stop();
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const roles = () => cm.client.resource<Role>(G, 'v1', 'clusterroles');
  const hasRule = (r: Role, group: string, resource: string) => (r.rules ?? []).some((x) => x.apiGroups?.includes(group) && x.resources?.includes(resource));
  const sar = async (user: string, verb: string, group: string, resource: string, namespace: string) => {
    const r = await admin.post('/apis/authorization.orch.io/v1/subjectaccessreviews', {
      spec: { user, groups: ['devs', 'system:authenticated'], resourceAttributes: { namespace, verb, group, resource } },
    });
    assert.equal(r.status, 201, r.text);
    return r.body.status.allowed as boolean;
  };

  test('a role labelled aggregate-to-edit reaches edit and admin, and a user bound to edit gains it', async () => {
    await admin.post('/api/v1/namespaces', { metadata: { name: 'team' } });
    const rb = await admin.post(`${RBAC}/namespaces/team/rolebindings`, {
      metadata: { name: 'jane-edit' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'User', apiGroup: G, name: 'jane' }],
    });
    assert.equal(rb.status, 201, rb.text);
    assert.equal(await sar('jane', 'create', 'stable.example.com', 'crontabs', 'team'), false);
    await roles().create({
      metadata: { name: 'crontabs-edit', labels: { [`${G}/aggregate-to-edit`]: 'true' } },
      rules: [{ verbs: ['get', 'list', 'create'], apiGroups: ['stable.example.com'], resources: ['crontabs'] }],
    } as Role);
    const edit = await pollUntil(() => roles().get('edit'), (r) => hasRule(r, 'stable.example.com', 'crontabs'), 'edit to aggregate the new role', 15_000);
    // edit's own rules (from system:aggregate-to-edit) are still there, each once.
    assert.ok(hasRule(edit, '', 'configmaps'));
    const keys = (edit.rules ?? []).map((r) => JSON.stringify(r));
    assert.equal(new Set(keys).size, keys.length, 'no rule twice');
    await pollUntil(() => roles().get('admin'), (r) => hasRule(r, 'stable.example.com', 'crontabs'), 'admin to aggregate it through edit', 15_000);
    await pollUntil(() => sar('jane', 'create', 'stable.example.com', 'crontabs', 'team'), (v) => v, 'jane to be allowed', 10_000);
    assert.equal(await sar('jane', 'create', 'stable.example.com', 'crontabs', 'elsewhere'), false, 'only where she is bound');
    // view does not select aggregate-to-edit roles.
    assert.equal(hasRule(await roles().get('view'), 'stable.example.com', 'crontabs'), false);
  });

  test('a custom aggregate: union in name order without repeats, kept in step with the picked roles', async () => {
    const sel = 'example.com/aggregate-to-team';
    await roles().create({ metadata: { name: 'team-aggregate' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [sel]: 'true' } }] }, rules: [] } as Role);
    const rb = await admin.post(`${RBAC}/clusterrolebindings`, {
      metadata: { name: 'jane-team' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'team-aggregate' }, subjects: [{ kind: 'User', apiGroup: G, name: 'jane' }],
    });
    assert.equal(rb.status, 201, rb.text);
    assert.equal((await jane.get('/api/v1/namespaces/default/configmaps')).status, 403);
    const cmRule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] };
    const svcRule = { verbs: ['get'], apiGroups: [''], resources: ['services'] };
    await roles().create({ metadata: { name: 'z-services', labels: { [sel]: 'true' } }, rules: [svcRule, cmRule] } as Role);
    await roles().create({ metadata: { name: 'a-configmaps', labels: { [sel]: 'true' } }, rules: [cmRule] } as Role);
    await roles().create({ metadata: { name: 'not-picked', labels: { [sel]: 'false' } }, rules: [{ verbs: ['*'], apiGroups: [''], resources: ['secrets'] }] } as Role);
    // z-services alone gives [svc, cm]; with a-configmaps, name order puts its rule first and z-services' repeat of it goes.
    await pollUntil(() => roles().get('team-aggregate'), (r) => JSON.stringify(r.rules) === JSON.stringify([cmRule, svcRule]), 'the aggregate to gather both roles in name order', 15_000);
    await pollUntil(() => jane.get('/api/v1/namespaces/default/configmaps'), (r) => r.status === 200, 'jane to list configmaps', 10_000);

    // A picked role changes: the aggregate follows.
    const a = await roles().get('a-configmaps');
    await roles().update({ ...a, rules: [cmRule, { verbs: ['list'], apiGroups: [''], resources: ['pods'] }] } as Role);
    await pollUntil(() => roles().get('team-aggregate'), (r) => hasRule(r, '', 'pods'), 'the aggregate to gain pods', 15_000);
    // Both stop being picked: the aggregate empties and jane loses access.
    for (const name of ['a-configmaps', 'z-services']) {
      const r = await roles().get(name);
      await roles().update({ ...r, metadata: { ...r.metadata, labels: {} } } as Role);
    }
    await pollUntil(() => roles().get('team-aggregate'), (r) => (r.rules ?? []).length === 0, 'the aggregate to empty', 15_000);
    await pollUntil(() => jane.get('/api/v1/namespaces/default/configmaps'), (r) => r.status === 403, 'jane to be refused again', 10_000);
    // Edited by hand, the rules are put back.
    const now = await roles().get('team-aggregate');
    await roles().update({ ...now, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] } as Role);
    await pollUntil(() => roles().get('team-aggregate'), (r) => (r.rules ?? []).length === 0, 'the hand edit to be undone', 15_000);
  });
});
