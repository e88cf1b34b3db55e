import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Deployment } from '../../api/apps/v1/deployment.js';
import { ConfigMap } from '../../api/core/v1/config-map.js';
import { apply } from './apply.js';
import { ApplyConflictError } from './conflict.js';
import { fieldManagerFor } from './field-manager.js';
import {
  decodeManagedFields, EMPTY_MANAGED, encodeManagedFields, isResetManagedFields, ManagedFieldsError, managedForUpdate,
  managerIdentifier, withManagedFields, type Managed,
} from './managed-fields.js';
import { TypedObjectError } from './typed-error.js';
import { update } from './update.js';

const T0 = '2024-05-01T10:00:00Z';
const T1 = '2024-05-01T10:00:05Z';
const T2 = '2024-05-01T10:00:09Z';
const cm = fieldManagerFor(ConfigMap, 'v1');
const configMap = (data: Record<string, string>, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default', ...extra }, data });
const entries = (m: Managed) => encodeManagedFields(m).map((e) => ({ ...e, fieldsV1: JSON.stringify(e.fieldsV1) }));

test('a create records the creator as an Update manager of what it set, as upstream writes it', () => {
  const dep = fieldManagerFor(Deployment, 'apps/v1');
  const next = {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: 'nginx', namespace: 'default', labels: { app: 'nginx' }, creationTimestamp: T0, uid: 'u', resourceVersion: '1', generation: 1 },
    spec: {
      replicas: 1, selector: { matchLabels: { app: 'nginx' } }, progressDeadlineSeconds: 600, revisionHistoryLimit: 10,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'nginx' }, creationTimestamp: null },
        spec: {
          containers: [{ name: 'nginx', image: 'nginx', imagePullPolicy: 'Always', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
          dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler', securityContext: {}, terminationGracePeriodSeconds: 30,
        },
      },
    },
    status: {},
  };
  const managed = update(dep, undefined, next, EMPTY_MANAGED, 'kubectl-create', new Date(T0));
  assert.deepEqual(entries(managed), [{
    manager: 'kubectl-create', operation: 'Update', apiVersion: 'apps/v1', time: T0, fieldsType: 'FieldsV1',
    fieldsV1: '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},'
      + '"f:revisionHistoryLimit":{},"f:selector":{},"f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},'
      + '"f:type":{}},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":'
      + '{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},'
      + '"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}',
  }]);
});

test('an update takes the fields it changes from other managers and never conflicts (4.9.2, 4.9.3)', () => {
  let managed = update(cm, undefined, configMap({ a: '1', b: '1' }), EMPTY_MANAGED, 'one', T0);
  managed = update(cm, configMap({ a: '1', b: '1' }), configMap({ a: '2', b: '1', c: '1' }), managed, 'two', T1);
  assert.deepEqual(entries(managed).map((e) => [e.manager, e.time, e.fieldsV1]), [
    ['one', T0, '{"f:data":{".":{},"f:b":{}}}'],
    ['two', T1, '{"f:data":{"f:a":{},"f:c":{}}}'],
  ]);
  // Removing a field takes it from everyone; an update that changes nothing keeps its old time.
  managed = update(cm, configMap({ a: '2', b: '1', c: '1' }), configMap({ a: '2', c: '1' }), managed, 'three', T2);
  assert.deepEqual(entries(managed).map((e) => [e.manager, e.time, e.fieldsV1]), [
    ['one', T0, '{"f:data":{}}'],
    ['two', T1, '{"f:data":{"f:a":{},"f:c":{}}}'],
  ]);
  const same = update(cm, configMap({ a: '2', c: '1' }), configMap({ a: '2', c: '1' }), managed, 'two', '2030-01-01T00:00:00Z');
  assert.deepEqual(entries(same), entries(managed));
});

test('an apply conflicts with an updater, forces, shares equal values, and a shared field conflicts for a third (4.9.2-4.9.4)', () => {
  const live0 = configMap({ a: '1' });
  let managed = update(cm, undefined, live0, EMPTY_MANAGED, 'ctl', T0);
  const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '2' } };
  assert.throws(() => apply(cm, live0, config, managed, 'kubectl', { now: T1 }), (err: unknown) => {
    assert.ok(err instanceof ApplyConflictError);
    assert.equal(err.code, 409);
    assert.equal(err.reason, 'Conflict');
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "ctl" using v1: .data.a');
    assert.deepEqual(err.status.details, { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "ctl" using v1', field: '.data.a' }] });
    return true;
  });
  // (a) force: the value changes and the updater loses the field.
  const forced = apply(cm, live0, config, managed, 'kubectl', { force: true, now: T1 });
  assert.deepEqual((forced.object as { data: unknown }).data, { a: '2' });
  assert.deepEqual(entries(forced.managed).map((e) => [e.manager, e.operation, e.fieldsV1]), [
    ['kubectl', 'Apply', '{"f:data":{"f:a":{}}}'],
    ['ctl', 'Update', '{"f:data":{}}'],
  ]);
  // (c) the same value as the server: ownership is shared, nothing changes, no new time.
  const shared = apply(cm, live0, { ...config, data: { a: '1' } }, managed, 'kubectl', { now: T1 });
  assert.deepEqual(entries(shared.managed).map((e) => [e.manager, e.time ?? null, e.fieldsV1]), [
    ['kubectl', null, '{"f:data":{"f:a":{}}}'],
    ['ctl', T0, '{"f:data":{".":{},"f:a":{}}}'],
  ]);
  // A later change to the shared field by one owner conflicts with the other.
  managed = shared.managed;
  assert.throws(() => apply(cm, live0, { ...config, data: { a: '3' } }, managed, 'kubectl', { now: T2 }),
    (e: unknown) => e instanceof ApplyConflictError && e.message === 'Apply failed with 1 conflict: conflict with "ctl" using v1: .data.a');
});

test('several conflicts: counted, grouped by manager in identifier order, one cause per field', () => {
  let managed = update(cm, undefined, configMap({ a: '1', b: '1' }), EMPTY_MANAGED, 'zed', T0);
  managed = update(cm, configMap({ a: '1', b: '1' }), configMap({ a: '1', b: '1', c: '1' }), managed, 'amy', T1);
  const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '2', b: '2', c: '2' } };
  try {
    apply(cm, configMap({ a: '1', b: '1', c: '1' }), config, managed, 'me', { now: T2 });
    assert.fail('expected a conflict');
  } catch (err) {
    assert.ok(err instanceof ApplyConflictError);
    assert.equal(err.message, 'Apply failed with 3 conflicts: conflicts with "amy" using v1:\n- .data.c\nconflicts with "zed" using v1:\n- .data.a\n- .data.b');
    assert.deepEqual(err.status.details?.causes?.map((c) => c.field), ['.data.c', '.data.a', '.data.b']);
  }
});

test('a conflict with a sub-resource manager names the sub-resource; an applier is named without a version', () => {
  const dep = fieldManagerFor(Deployment, 'apps/v1');
  const status = fieldManagerFor(Deployment, 'apps/v1', { subresource: 'status' });
  const live = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 1 } };
  let managed = update(status, live, { ...live, status: { replicas: 1 } }, EMPTY_MANAGED, 'ctl', T0);
  assert.deepEqual(encodeManagedFields(managed).map((e) => [e.manager, e.subresource]), [['ctl', 'status']]);
  const config = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, status: { replicas: 3 } };
  assert.throws(() => apply(dep, { ...live, status: { replicas: 1 } }, config, managed, 'me', { now: T1 }),
    (e: unknown) => e instanceof ApplyConflictError && e.message === 'Apply failed with 1 conflict: conflict with "ctl" with subresource "status" using apps/v1: .status.replicas');
  managed = apply(dep, live, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 2 } }, EMPTY_MANAGED, 'first', { now: T0 }).managed;
  assert.throws(() => apply(dep, { ...live, spec: { replicas: 2 } }, { ...config, status: undefined, spec: { replicas: 5 } }, managed, 'second', { now: T1 }),
    (e: unknown) => e instanceof ApplyConflictError && e.message === 'Apply failed with 1 conflict: conflict with "first": .spec.replicas');
});

test('a field dropped from the applied configuration is removed unless another manager owns it (4.9.4b, 4.9.5)', () => {
  let r = apply(cm, undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1', b: '1', c: '1' } }, EMPTY_MANAGED, 'me', { now: T0 });
  const live = r.object as ReturnType<typeof configMap>;
  let managed = update(cm, live, { ...live, data: { ...live.data, c: '2' } }, r.managed, 'ctl', T1);
  r = apply(cm, { ...live, data: { ...live.data, c: '2' } }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } }, managed, 'me', { now: T2 });
  assert.deepEqual((r.object as { data: unknown }).data, { a: '1', c: '2' });
  managed = r.managed;
  assert.deepEqual(entries(managed).map((e) => [e.manager, e.fieldsV1]), [['me', '{"f:data":{"f:a":{}}}'], ['ctl', '{"f:data":{"f:c":{}}}']]);
});

test('ownership handover through a temporary manager (4.9.12)', () => {
  const live = configMap({ a: '1' });
  let managed = apply(cm, undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } }, EMPTY_MANAGED, 'user', { now: T0 }).managed;
  // The temporary manager claims the field with the same value: shared, no conflict.
  managed = apply(cm, live, { apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' } }, managed, 'handover', { now: T1 }).managed;
  // The user drops the field: it stays, owned by the temporary manager.
  const r = apply(cm, live, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, managed, 'user', { now: T1 });
  assert.deepEqual((r.object as { data: unknown }).data, { a: '1' });
  // The controller takes it over; the temporary manager, now owning nothing, disappears.
  managed = update(cm, live, configMap({ a: '2' }), r.managed, 'controller', T2);
  assert.deepEqual(encodeManagedFields(managed).map((e) => e.manager), ['controller']);
});

test('apply refuses managedFields in the configuration, another apiVersion, and items without keys', () => {
  const dep = fieldManagerFor(Deployment, 'apps/v1');
  assert.throws(() => apply(cm, undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { managedFields: [] } }, EMPTY_MANAGED, 'm', { now: T0 }),
    (e: unknown) => e instanceof Error && e.message === 'metadata.managedFields must be nil');
  assert.throws(() => apply(dep, undefined, { apiVersion: 'apps/v1beta1', kind: 'Deployment' }, EMPTY_MANAGED, 'm', { now: T0 }),
    (e: unknown) => e instanceof Error && e.message === 'Incorrect version specified in apply patch. Specified patch version: apps/v1beta1, expected: apps/v1');
  const dup = { apiVersion: 'apps/v1', kind: 'Deployment', spec: { template: { spec: { containers: [{ name: 'a' }, { name: 'a' }] } } } };
  assert.throws(() => apply(dep, undefined, dup, EMPTY_MANAGED, 'm', { now: T0 }),
    (e: unknown) => e instanceof TypedObjectError && e.code === 400 && e.message === '.spec.template.spec.containers: duplicate entries for key [name="a"]');
  const keyless = { apiVersion: 'apps/v1', kind: 'Deployment', spec: { template: { spec: { containers: [{ image: 'x' }] } } } };
  assert.throws(() => apply(dep, undefined, keyless, EMPTY_MANAGED, 'm', { now: T0 }),
    (e: unknown) => e instanceof TypedObjectError && e.message === '.spec.template.spec.containers: element 0: associative list with keys has an element that omits all key fields ["name"] (and doesn\'t have default values for any key fields)');
});

test('managedFields decode with upstream\'s errors and encode in upstream\'s order, one entry per identity', () => {
  const good = [
    { manager: 'b', operation: 'Update', apiVersion: 'v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:x': {} } } },
    { manager: 'z', operation: 'Apply', apiVersion: 'v1', time: T2, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:y': {} } } },
    { manager: 'a', operation: 'Update', apiVersion: 'v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:z': {} } }, subresource: 'status' },
    { manager: 'gone', operation: 'Update', apiVersion: 'v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: {} },
  ];
  const managed = decodeManagedFields(good);
  assert.deepEqual(encodeManagedFields(managed).map((e) => [e.operation, e.manager]), [['Apply', 'z'], ['Update', 'a'], ['Update', 'b']]);
  assert.deepEqual(encodeManagedFields(managed)[1], good[2]);
  assert.equal(managerIdentifier({ manager: 'z', operation: 'Apply', apiVersion: 'v9' }), '{"manager":"z","operation":"Apply"}');
  assert.equal(managerIdentifier({ manager: 'a<b', operation: 'Update', apiVersion: 'v1', subresource: 'status' }),
    '{"manager":"a\\u003cb","operation":"Update","apiVersion":"v1","subresource":"status"}');
  const bad: [unknown, string][] = [
    [[{ ...good[0], operation: 'Patch' }], 'operation must be `Apply` or `Update`'],
    [[{ ...good[0], apiVersion: '' }], 'apiVersion must not be empty'],
    [[good[0], { ...good[0], manager: 'c', fieldsType: undefined }], 'missing fieldsType in managed fields entry 1'],
    [[{ ...good[0], fieldsType: 'FieldsV2' }], 'invalid fieldsType "FieldsV2" in managed fields entry 0'],
    [[{ ...good[0], fieldsV1: { 'f:a': 3 } }], `error decoding versioned set from {b Update v1 ${T1} FieldsV1 }: error decoding set: ReadMapCB: expect { or n, but found 3`],
  ];
  for (const [input, message] of bad) assert.throws(() => decodeManagedFields(input), (e: unknown) => e instanceof ManagedFieldsError && e.message === message, message);
});

test('managedFields of an update: [{}] resets, [] does not, malformed ones fall back to the live object\'s (4.9.10)', () => {
  const liveEntries = [{ manager: 'old', operation: 'Update', apiVersion: 'v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } }];
  const live = configMap({ a: '1' }, { managedFields: liveEntries });
  assert.ok(isResetManagedFields([{}]) && !isResetManagedFields([]) && !isResetManagedFields([{}, {}]));
  assert.equal(managedForUpdate(live, configMap({ a: '1' }, { managedFields: [{}] })).sets.size, 0);
  assert.deepEqual([...managedForUpdate(live, configMap({ a: '1' }, { managedFields: [] })).sets.keys()], [managerIdentifier({ manager: 'old', operation: 'Update', apiVersion: 'v1' })]);
  assert.equal(managedForUpdate(live, configMap({ a: '1' }, { managedFields: [{ operation: 'Bad' }] })).sets.size, 1);
  const edited = [{ ...liveEntries[0], manager: 'renamed' }];
  assert.deepEqual(encodeManagedFields(managedForUpdate(live, configMap({ a: '1' }, { managedFields: edited }))).map((e) => e.manager), ['renamed']);
  assert.deepEqual(encodeManagedFields(managedForUpdate(live, configMap({ a: '1' }, { managedFields: edited }), { ignoreRequest: true })).map((e) => e.manager), ['old']);
  // A reset combined with a change: the reset happens first, then the requester owns what it changed.
  const managed = update(cm, live, configMap({ a: '1', b: '2' }), managedForUpdate(live, configMap({ a: '1', b: '2' }, { managedFields: [{}] })), 'me', T1);
  assert.deepEqual(entries(managed).map((e) => [e.manager, e.fieldsV1]), [['me', '{"f:data":{"f:b":{}}}']]);
  const written = withManagedFields(configMap({ a: '1' }), managed) as unknown as { metadata: { managedFields: unknown[] } };
  assert.equal(written.metadata.managedFields.length, 1);
});

test('at most ten Update entries: the oldest merge into ancient-changes', () => {
  let managed: Managed = EMPTY_MANAGED;
  let live: ReturnType<typeof configMap> | undefined;
  for (let i = 0; i < 12; i++) {
    const next = configMap({ ...(live?.data ?? {}), [`k${i}`]: 'v' });
    managed = update(cm, live, next, managed, `m${String(i).padStart(2, '0')}`, `2024-05-01T10:00:${String(i).padStart(2, '0')}Z`);
    live = next;
  }
  const list = encodeManagedFields(managed);
  assert.equal(list.length, 10);
  assert.deepEqual(list[0]?.manager, 'ancient-changes');
  assert.deepEqual(Object.keys((list[0]?.fieldsV1 as Record<string, Record<string, unknown>>)['f:data']!), ['.', 'f:k0', 'f:k1', 'f:k2']);
});
