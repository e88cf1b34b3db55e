// Event (core v1): a report of something that happened to an object, as upstream core/v1 Event.
// Field numbers follow upstream core/v1 generated.proto.
import { type Static } from '@sinclair/typebox';
import { field, int32, object, opt, str } from '../../schema.js';
import { microTime, time } from '../../meta/v1/primitives.js';
import { topLevel } from '../../meta/v1/types.js';
import { ObjectReference } from './object-reference.js';

const P = 'io.orch.api.core.v1';

export const EventSource = object(`${P}.EventSource`, {
  component: opt(str(1, { description: 'Component that reported the event, e.g. a controller name.' })),
  host: opt(str(2, { description: 'Node name on which the event was reported.' })),
}, { description: 'Which component, on which host, reported an event.' });
export type EventSource = Static<typeof EventSource>;

export const EventSeries = object(`${P}.EventSeries`, {
  count: opt(int32(1, { description: 'How many times the event has happened so far in the series.' })),
  lastObservedTime: opt(microTime(2, { 'x-orch-emit': 'always', description: 'When the event was last seen in the series.' })),
}, { description: 'A series of repeats of the same event, reported as one event with a count.' });
export type EventSeries = Static<typeof EventSeries>;

export const Event = topLevel(`${P}.Event`, {
  involvedObject: field(2, ObjectReference, { description: 'The object the event is about.' }),
  reason: opt(str(3, { description: 'Short machine-readable reason (UpperCamelCase) for the change of state the event reports.' })),
  message: opt(str(4, { description: 'Human-readable description of what happened.' })),
  source: opt(field(5, EventSource, { 'x-orch-emit': 'always', description: 'The component reporting the event; the older way to say what reportingComponent says.' })),
  firstTimestamp: opt(time(6, { 'x-orch-emit': 'always', description: 'When the event was first recorded.' })),
  lastTimestamp: opt(time(7, { 'x-orch-emit': 'always', description: 'When the event was most recently recorded.' })),
  count: opt(int32(8, { description: 'How many times the event has happened.' })),
  type: opt(str(9, { description: 'Kind of event: Normal or Warning (other types may come later).' })),
  eventTime: opt(microTime(10, { 'x-orch-emit': 'always', description: 'When the event first happened, with microsecond precision; set by newer reporters.' })),
  series: opt(field(11, EventSeries, { description: 'Data about the series of repeats this event stands for; unset for a one-off event.' })),
  action: opt(str(12, { description: 'What was done (or failed) about the involved object, e.g. Scheduling.' })),
  related: opt(field(13, ObjectReference, { description: 'A second object involved in the event, when there is one.' })),
  reportingComponent: opt(str(14, { 'x-orch-emit': 'always', description: 'Name of the controller that emitted the event, e.g. example.com/my-controller.' })),
  reportingInstance: opt(str(15, { 'x-orch-emit': 'always', description: 'Identity of the controller instance that emitted the event, e.g. its host name.' })),
}, {
  required: ['involvedObject'],
  description: 'A report of something that happened in the cluster to an object: a state change, an error, or another notable occurrence.',
});
export type Event = Static<typeof Event>;
