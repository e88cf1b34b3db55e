import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Event } from '../../../api/core/v1/event.js';
import { createErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { eventValidation } from './event-validation.js';

const kind: KindUnderTest<Event> = { schema: Event, validation: eventValidation('orch-system') };
const ev = (namespace: string, extra: Record<string, unknown> = {}, involvedNamespace?: string) => ({
  apiVersion: 'v1', kind: 'Event', metadata: { name: 'web-0.1', namespace },
  involvedObject: { kind: 'Pod', name: 'web-0', ...(involvedNamespace === undefined ? {} : { namespace: involvedNamespace }) },
  ...extra,
});
const modern = { eventTime: '2026-01-01T00:00:00.123456Z', reportingComponent: 'orch.io/scheduler', reportingInstance: 'node-1', action: 'Scheduling', reason: 'Scheduled' };

test('an old-style event must be in its object\'s namespace', () => {
  assert.deepEqual(createErrors(kind, ev('team', { reason: 'Started' }, 'team')), []);
  assert.deepEqual(createErrors(kind, ev('default')), [], 'cluster-scoped objects report into default');
  const errs = createErrors(kind, ev('team', {}, 'other'));
  assert.deepEqual(summary(errs), ['FieldValueInvalid involvedObject.namespace']);
  assert.equal(errs[0]!.detail, 'does not match event.namespace');
  assert.deepEqual(summary(createErrors(kind, ev('team'))), ['FieldValueInvalid involvedObject.namespace']);
});

test('a new-style event names its reporter, action and reason', () => {
  assert.deepEqual(createErrors(kind, ev('team', modern, 'team')), []);
  assert.deepEqual(createErrors(kind, ev('orch-system', modern)), [], 'cluster-scoped objects may report into the system namespace');
  assert.deepEqual(summary(createErrors(kind, ev('team', modern))), ['FieldValueInvalid involvedObject.namespace']);
  assert.deepEqual(summary(createErrors(kind, ev('team', { eventTime: modern.eventTime }, 'team'))),
    ['FieldValueRequired reportingComponent', 'FieldValueRequired reportingInstance', 'FieldValueRequired action', 'FieldValueRequired reason']);
  assert.deepEqual(summary(createErrors(kind, ev('team', { ...modern, reportingComponent: 'not a name' }, 'team'))), ['FieldValueInvalid reportingComponent']);
});

test('new-style events are held to length limits', () => {
  const long = (n: number) => 'x'.repeat(n);
  const errs = createErrors(kind, ev('team', { ...modern, reportingInstance: long(129), action: long(129), reason: long(129), message: long(1025) }, 'team'));
  assert.deepEqual(summary(errs), ['FieldValueInvalid reportingInstance', 'FieldValueInvalid action', 'FieldValueInvalid reason', 'FieldValueInvalid message']);
  assert.equal(errs[3]!.detail, 'can have at most 1024 characters');
  assert.deepEqual(createErrors(kind, ev('team', { ...modern, message: long(1024) }, 'team')), []);
  assert.deepEqual(createErrors(kind, ev('team', { message: long(5000) }, 'team')), [], 'old-style events have no limits');
});

test('involvedObject is required and updates are checked like creates', () => {
  const noObject: Record<string, unknown> = ev('team');
  delete noObject.involvedObject;
  assert.deepEqual(summary(createErrors(kind, noObject)), ['FieldValueRequired involvedObject']);
  const old = ev('team', {}, 'team');
  assert.deepEqual(updateErrors(kind, ev('team', { count: 2 }, 'team'), old), []);
  assert.deepEqual(summary(updateErrors(kind, ev('team', { count: 2 }, 'x'), old)), ['FieldValueInvalid involvedObject.namespace']);
});
