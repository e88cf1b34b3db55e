import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventFromCore, eventToCore } from '../../../api/events/v1/conversion.js';
import { Event } from '../../../api/events/v1/event.js';
import { createErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { eventsV1EventValidation } from './event-validation.js';

const kind: KindUnderTest<Event> = { schema: Event, validation: eventsV1EventValidation('orch-system') };
const ev = (extra: Record<string, unknown> = {}) => ({
  apiVersion: 'events.orch.io/v1', kind: 'Event', metadata: { name: 'web-0.1', namespace: 'team' },
  eventTime: '2026-01-01T00:00:00.123456Z', reportingController: 'orch.io/scheduler', reportingInstance: 'sched-1',
  action: 'Binding', reason: 'Scheduled', regarding: { kind: 'Pod', namespace: 'team', name: 'web-0' }, type: 'Normal', ...extra,
});

test('a new event names its reporter, action, reason and a Normal or Warning type', () => {
  assert.deepEqual(createErrors(kind, ev()), []);
  assert.deepEqual(summary(createErrors(kind, ev({ reportingController: '', reportingInstance: '', action: '', reason: '', type: 'Odd' }))),
    ['FieldValueRequired reportingController', 'FieldValueRequired reportingInstance', 'FieldValueRequired action', 'FieldValueRequired reason', 'FieldValueInvalid type']);
  assert.deepEqual(summary(createErrors(kind, { ...ev(), eventTime: undefined })), ['FieldValueRequired eventTime']);
  const long = createErrors(kind, ev({ note: 'n'.repeat(1025) }));
  assert.deepEqual(summary(long), ['FieldValueInvalid message']);
  assert.equal(long[0]!.detail, 'can have at most 1024 characters');
});

test('the deprecated core fields must stay unset; a series counts at least 2', () => {
  assert.deepEqual(summary(createErrors(kind, ev({ deprecatedCount: 3, deprecatedSource: { component: 'kubelet' }, deprecatedFirstTimestamp: '2026-01-01T00:00:00Z', deprecatedLastTimestamp: '2026-01-01T00:00:00Z' }))),
    ['FieldValueInvalid firstTimestamp', 'FieldValueInvalid lastTimestamp', 'FieldValueInvalid count', 'FieldValueInvalid source']);
  assert.deepEqual(summary(createErrors(kind, ev({ series: { count: 1, lastObservedTime: '2026-01-01T00:00:01.000001Z' } }))), ['FieldValueInvalid series.count']);
});

test('on update only the series may change', () => {
  const series = { count: 2, lastObservedTime: '2026-01-01T00:00:01.000001Z' };
  assert.deepEqual(updateErrors(kind, ev({ series }), ev()), []);
  assert.deepEqual(summary(updateErrors(kind, ev({ note: 'other', reason: 'Other' }), ev())), ['FieldValueInvalid reason', 'FieldValueInvalid message']);
});

test('conversion to core and back keeps every field', () => {
  const full = ev({
    series: { count: 2, lastObservedTime: '2026-01-01T00:00:01.000001Z' }, related: { kind: 'Node', name: 'n1' }, note: 'bound',
    deprecatedSource: { component: 'c', host: 'h' }, deprecatedFirstTimestamp: '2026-01-01T00:00:00Z', deprecatedLastTimestamp: '2026-01-01T00:00:02Z', deprecatedCount: 2,
  });
  const core = eventToCore(full);
  assert.deepEqual([core.apiVersion, core.message, core.reportingComponent, core.count], ['v1', 'bound', 'orch.io/scheduler', 2]);
  assert.deepEqual(core.involvedObject, full.regarding);
  assert.deepEqual(eventFromCore(core, 'events.orch.io/v1'), full);
});
