// Shared shapes of every API object and response: metadata, selectors, conditions, Status,
// DeleteOptions and watch events. Field numbers follow upstream apimachinery's generated.proto.
import { Type, type SchemaOptions, type Static, type TProperties } from '@sinclair/typebox';
import { bool, enumOf, field, int32, int64, list, object, opt, raw, str, stringList, stringMap } from '../../schema.js';
import { time } from './primitives.js';

const P = 'io.orch.apimachinery.pkg.apis.meta.v1';

export const OwnerReference = object(`${P}.OwnerReference`, {
  apiVersion: str(5),
  kind: str(1),
  name: str(3),
  uid: str(4),
  controller: opt(bool(6)),
  blockOwnerDeletion: opt(bool(7)),
}, { required: ['apiVersion', 'kind', 'name', 'uid'] });

export const ManagedFieldsEntry = object(`${P}.ManagedFieldsEntry`, {
  manager: opt(str(1)),
  operation: opt(str(2)),
  apiVersion: opt(str(3)),
  time: opt(time(4)),
  fieldsType: opt(str(6)),
  fieldsV1: opt(raw(7)),
  subresource: opt(str(8)),
});

export const ObjectMeta = object(`${P}.ObjectMeta`, {
  name: opt(str(1)),
  generateName: opt(str(2)),
  namespace: opt(str(3)),
  selfLink: opt(str(4)),
  uid: opt(str(5)),
  resourceVersion: opt(str(6)),
  generation: opt(int64(7)),
  creationTimestamp: opt(time(8)),
  deletionTimestamp: opt(time(9)),
  deletionGracePeriodSeconds: opt(int64(10)),
  labels: opt(stringMap(11)),
  annotations: opt(stringMap(12)),
  ownerReferences: opt(list(13, OwnerReference, { listType: 'map', mapKeys: ['uid'], patchStrategy: 'merge', patchMergeKey: 'uid' })),
  finalizers: opt(stringList(14, { listType: 'set', patchStrategy: 'merge' })),
  managedFields: opt(list(17, ManagedFieldsEntry, { listType: 'atomic' })),
});
export type ObjectMeta = Static<typeof ObjectMeta>;

export const ListMeta = object(`${P}.ListMeta`, {
  selfLink: opt(str(1)),
  resourceVersion: opt(str(2)),
  continue: opt(str(3)),
  remainingItemCount: opt(int64(4)),
});
export type ListMeta = Static<typeof ListMeta>;

export const LabelSelectorRequirement = object(`${P}.LabelSelectorRequirement`, {
  key: str(1),
  operator: str(2),
  values: opt(stringList(3, { listType: 'atomic' })),
}, { required: ['key', 'operator'] });

export const LabelSelector = object(`${P}.LabelSelector`, {
  matchLabels: opt(stringMap(1)),
  matchExpressions: opt(list(2, LabelSelectorRequirement, { listType: 'atomic' })),
}, { 'x-orch-map-type': 'atomic' });
export type LabelSelector = Static<typeof LabelSelector>;

export const Condition = object(`${P}.Condition`, {
  type: str(1),
  status: enumOf(2, ['True', 'False', 'Unknown'] as const),
  observedGeneration: opt(int64(3, { minimum: 0 })),
  lastTransitionTime: time(4),
  reason: str(5),
  message: str(6),
}, { required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'] });
export type Condition = Static<typeof Condition>;

export const StatusCause = object(`${P}.StatusCause`, {
  reason: opt(str(1)),
  message: opt(str(2)),
  field: opt(str(3)),
});
export type StatusCause = Static<typeof StatusCause>;

export const StatusDetails = object(`${P}.StatusDetails`, {
  name: opt(str(1)),
  group: opt(str(2)),
  kind: opt(str(3)),
  uid: opt(str(6)),
  causes: opt(list(4, StatusCause, { listType: 'atomic' })),
  retryAfterSeconds: opt(int32(5)),
});
export type StatusDetails = Static<typeof StatusDetails>;

export const Status = object(`${P}.Status`, {
  kind: opt(Type.Literal('Status')),
  apiVersion: opt(Type.String()),
  metadata: opt(field(1, ListMeta)),
  status: opt(str(2)),
  message: opt(str(3)),
  reason: opt(str(4)),
  details: opt(field(5, StatusDetails)),
  code: opt(int32(6)),
});
export type Status = Static<typeof Status>;

export const Preconditions = object(`${P}.Preconditions`, {
  uid: opt(str(1)),
  resourceVersion: opt(str(2)),
});

export const DeleteOptions = object(`${P}.DeleteOptions`, {
  kind: opt(Type.String()),
  apiVersion: opt(Type.String()),
  gracePeriodSeconds: opt(int64(1)),
  preconditions: opt(field(2, Preconditions)),
  orphanDependents: opt(bool(3)),
  propagationPolicy: opt(enumOf(4, ['Orphan', 'Background', 'Foreground'] as const)),
  dryRun: opt(stringList(5, { listType: 'atomic' })),
});
export type DeleteOptions = Static<typeof DeleteOptions>;

export const WatchEvent = object(`${P}.WatchEvent`, {
  type: str(1),
  object: raw(2),
}, { required: ['type', 'object'] });

/** The metadata every stored object carries, as the server code handles it. */
export interface ObjectWithMeta {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

/**
 * The top-level schema of a kind: apiVersion and kind (carried by the protobuf envelope, so
 * unnumbered), metadata as field 1, then the kind's own fields.
 */
export function topLevel<P extends TProperties>(
  name: string,
  properties: P,
  options: SchemaOptions = {},
) {
  return object(name, {
    apiVersion: opt(Type.String()),
    kind: opt(Type.String()),
    metadata: opt(field(1, ObjectMeta)),
    ...properties,
  }, options);
}
