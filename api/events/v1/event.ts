// Event (events.<domain>/v1): the newer shape of an event, served from the same storage as core
// v1 events (see conversion.ts). Field numbers follow upstream events/v1 generated.proto.
import { type Static } from '@sinclair/typebox';
import { field, int32, object, opt, str } from '../../schema.js';
import { microTime, time } from '../../meta/v1/primitives.js';
import { topLevel } from '../../meta/v1/types.js';
import { EventSource } from '../../core/v1/event.js';
import { ObjectReference } from '../../core/v1/object-reference.js';

const P = 'io.orch.api.events.v1';

export const EventSeries = object(`${P}.EventSeries`, {
  count: int32(1, { description: 'How many times the event has been seen in the series so far.' }),
  lastObservedTime: microTime(2, { description: 'When the last event of the series was seen.' }),
}, {
  required: ['count', 'lastObservedTime'],
  description: 'A series of repeats of one event: the reporter updates count and time instead of writing new events.',
});
export type EventSeries = Static<typeof EventSeries>;

export const Event = topLevel(`${P}.Event`, {
  // A plain MicroTime upstream: always written, null when unset (events converted from old core events).
  eventTime: microTime(2, { description: 'When the event first happened, with microsecond precision. Required.' }),
  series: opt(field(3, EventSeries, { description: 'The series this event stands for; unset for a one-off event.' })),
  reportingController: opt(str(4, { description: 'Name of the controller that emitted the event, e.g. example.com/my-controller. Required for new events.' })),
  reportingInstance: opt(str(5, { description: 'Identity of the controller instance that emitted the event, e.g. its host name. Required for new events.' })),
  action: opt(str(6, { description: 'What was done (or failed) about the regarding object, e.g. Scheduling. Required for new events.' })),
  reason: opt(str(7, { description: 'Why the action was taken, short and machine-readable (UpperCamelCase). Required for new events.' })),
  regarding: opt(field(8, ObjectReference, {
    'x-orch-emit': 'always',
    description: 'The object the event is about, or the object acted upon by the action.',
  })),
  related: opt(field(9, ObjectReference, { description: 'A second object of a more complex action, e.g. the node a pod was placed on.' })),
  note: opt(str(10, { description: 'Human-readable description of the event, at most 1 KiB.' })),
  type: opt(str(11, { description: 'Kind of event: Normal or Warning. Required for new events.' })),
  deprecatedSource: opt(field(12, EventSource, {
    'x-orch-emit': 'always',
    description: 'The component that reported the event, kept for compatibility with core v1 events.',
  })),
  deprecatedFirstTimestamp: opt(time(13, { 'x-orch-emit': 'always', description: 'Core v1 firstTimestamp, kept for compatibility.' })),
  deprecatedLastTimestamp: opt(time(14, { 'x-orch-emit': 'always', description: 'Core v1 lastTimestamp, kept for compatibility.' })),
  deprecatedCount: opt(int32(15, { description: 'Core v1 count, kept for compatibility.' })),
}, {
  required: ['eventTime'],
  description: 'A report of an event somewhere in the cluster, meant to inform about a state change rather than to be relied on: events are kept only for a limited time.',
});
export type Event = Static<typeof Event>;
