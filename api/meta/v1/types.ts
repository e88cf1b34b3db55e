// Shared shapes of every API object and response: metadata, selectors, conditions, Status,
// DeleteOptions and watch events. Field numbers follow upstream apimachinery's generated.proto.
import { Type, type SchemaOptions, type Static, type TProperties } from '@sinclair/typebox';
import { bool, enumOf, field, int32, int64, list, object, opt, raw, str, stringList, stringMap } from '../../schema.js';
import { time } from './primitives.js';

const P = 'io.orch.apimachinery.pkg.apis.meta.v1';

export const OwnerReference = object(`${P}.OwnerReference`, {
  apiVersion: str(5, { description: 'API version of the owner, as group/version.' }),
  kind: str(1, { description: 'Kind of the owner, in CamelCase.' }),
  name: str(3, { description: 'Name of the owner, in the same namespace as this object (or cluster-scoped).' }),
  uid: str(4, { description: 'UID of the owner; the reference holds only while an object with this UID exists.' }),
  controller: opt(bool(6, { 'x-orch-emit': 'pointer', description: 'True when the owner is the managing controller of this object. At most one owner reference may say so.' })),
  blockOwnerDeletion: opt(bool(7, {
    'x-orch-emit': 'pointer',
    description: 'When true and the owner is deleted in the foreground, the owner is not removed until this object is gone. Setting it needs delete permission on the owner.',
  })),
}, { required: ['apiVersion', 'kind', 'name', 'uid'], 'x-orch-map-type': 'atomic', description: 'Names an object that owns this one; the garbage collector removes this object once all its owners are gone.' });

export const ManagedFieldsEntry = object(`${P}.ManagedFieldsEntry`, {
  manager: opt(str(1, { description: 'Name of the workflow (client) that manages the fields.' })),
  operation: opt(str(2, { description: 'The kind of request that last touched the fields: Apply or Update.' })),
  apiVersion: opt(str(3, { description: 'API version the field set is expressed in; field paths depend on it.' })),
  time: opt(time(4, { 'x-orch-emit': 'pointer', description: 'When the fields were last changed by this manager.' })),
  fieldsType: opt(str(6, { description: 'Format of the field set; the only one defined is FieldsV1.' })),
  fieldsV1: opt(raw(7, { 'x-orch-emit': 'pointer', description: 'The set of fields this manager owns, in the FieldsV1 format (a trie of field paths).' })),
  subresource: opt(str(8, { description: 'Sub-resource the update went through (such as status); empty for the main resource.' })),
}, { description: 'The fields one manager owns and the operation through which it set them (server-side apply bookkeeping).' });

export const ObjectMeta = object(`${P}.ObjectMeta`, {
  name: opt(str(1, { description: 'Unique name of the object within its namespace (or the cluster, for cluster-scoped kinds). Cannot be changed.' })),
  generateName: opt(str(2, {
    description: 'Prefix from which the server generates a unique name when name is empty: a random suffix of five characters is appended.',
  })),
  namespace: opt(str(3, { description: 'Namespace the object lives in; empty for cluster-scoped kinds. Cannot be changed.' })),
  selfLink: opt(str(4, { description: 'Deprecated and never set by the server.' })),
  uid: opt(str(5, { description: 'Identifier the server assigns at creation, unique in time and space. Read-only.' })),
  resourceVersion: opt(str(6, {
    description: 'Opaque version of the object, changed by every write. Sent back on an update, it makes the update fail with a conflict if the object changed meanwhile. Read-only.',
  })),
  generation: opt(int64(7, { description: 'Number that increases with every change to the desired state (spec). Read-only.' })),
  creationTimestamp: opt(time(8, {
    'x-orch-emit': 'always',
    description: 'When the server created the object, in UTC with second precision. Read-only; null in templates.',
  })),
  deletionTimestamp: opt(time(9, {
    'x-orch-emit': 'pointer',
    description: 'When the object is to be deleted: set by the server when deletion was requested while finalizers remain. Read-only.',
  })),
  deletionGracePeriodSeconds: opt(int64(10, {
    'x-orch-emit': 'pointer',
    description: 'Seconds the object was allowed to terminate gracefully once deletion was requested. Read-only.',
  })),
  labels: opt(stringMap(11, { description: 'Key/value pairs used to organise and select objects (label selectors).' })),
  annotations: opt(stringMap(12, { description: 'Key/value pairs for arbitrary non-identifying metadata that tools may store; not used for selection.' })),
  ownerReferences: opt(list(13, OwnerReference, { listType: 'map', mapKeys: ['uid'], patchStrategy: 'merge', patchMergeKey: 'uid' }, {
    description: 'Objects this object depends on. It is garbage collected when all of them are gone.',
  })),
  finalizers: opt(stringList(14, { listType: 'set', patchStrategy: 'merge' }, {
    description: 'Names of the conditions that must be cleared before the object is removed. A deleted object with finalizers stays, marked with deletionTimestamp, until the list is empty.',
  })),
  managedFields: opt(list(17, ManagedFieldsEntry, { listType: 'atomic' }, {
    description: 'Which manager owns which fields; maintained by the server for server-side apply.',
  })),
}, { description: 'Metadata every persisted object has: its name, namespace, identity, version, labels and annotations, owners and finalizers.' });
export type ObjectMeta = Static<typeof ObjectMeta>;

export const ListMeta = object(`${P}.ListMeta`, {
  selfLink: opt(str(1, { description: 'Deprecated and never set by the server.' })),
  resourceVersion: opt(str(2, { description: 'Version of the collection the list was read at; start a watch from it to see every later change.' })),
  continue: opt(str(3, {
    description: 'Set when the list was cut short by a limit: pass it as the continue parameter of the next request (same query) to read the rest.',
  })),
  remainingItemCount: opt(int64(4, {
    'x-orch-emit': 'pointer',
    description: 'How many more items follow this page; an estimate, absent when unknown (as with selectors).',
  })),
}, { description: 'Metadata of a list or other synthetic response: its version and where paging continues.' });
export type ListMeta = Static<typeof ListMeta>;

export const LabelSelectorRequirement = object(`${P}.LabelSelectorRequirement`, {
  key: str(1, { description: 'The label key the requirement applies to.' }),
  operator: str(2, { description: 'How the key relates to the values: In, NotIn, Exists or DoesNotExist.' }),
  values: opt(stringList(3, { listType: 'atomic' }, {
    description: 'Values for In and NotIn, which need at least one; must be empty for Exists and DoesNotExist.',
  })),
}, { required: ['key', 'operator'], description: 'One requirement of a label selector: a key, an operator and, for In and NotIn, values.' });

export const LabelSelector = object(`${P}.LabelSelector`, {
  matchLabels: opt(stringMap(1, { description: 'Labels that must all be present with these values; each pair is an In requirement with one value.' })),
  matchExpressions: opt(list(2, LabelSelectorRequirement, { listType: 'atomic' }, { description: 'Requirements that must all hold.' })),
}, {
  'x-orch-map-type': 'atomic',
  description: 'A query over labels. All conditions are ANDed; an empty selector matches every object, an absent one none.',
});
export type LabelSelector = Static<typeof LabelSelector>;

export const Condition = object(`${P}.Condition`, {
  type: str(1, { description: 'Type of the condition, in CamelCase or as domain/Type.' }),
  status: enumOf(2, ['True', 'False', 'Unknown'] as const, { description: 'Whether the condition holds: True, False or Unknown.' }),
  observedGeneration: opt(int64(3, { minimum: 0, description: 'The metadata.generation the condition was computed from; older than the current generation means stale.' })),
  lastTransitionTime: time(4, { description: 'When the status last changed from one value to another.' }),
  reason: str(5, { description: 'Machine-readable CamelCase reason for the last transition.' }),
  message: str(6, { description: 'Human-readable details about the last transition; may be empty.' }),
}, { required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'], description: 'One aspect of the current state of an object, as observed by a controller.' });
export type Condition = Static<typeof Condition>;

export const StatusCause = object(`${P}.StatusCause`, {
  reason: opt(str(1, { description: 'Machine-readable description of the cause, such as FieldValueRequired; may be empty.' })),
  message: opt(str(2, { description: 'Human-readable description of the cause.' })),
  field: opt(str(3, { description: 'Path of the field that caused the error, such as spec.replicas or items[0].name; may be empty.' })),
}, { description: 'One reason a request failed, often naming the field responsible.' });
export type StatusCause = Static<typeof StatusCause>;

export const StatusDetails = object(`${P}.StatusDetails`, {
  name: opt(str(1, { description: 'Name of the object the status is about, when there is one.' })),
  group: opt(str(2, { description: 'API group of the resource the status is about.' })),
  kind: opt(str(3, { description: 'Kind (or resource) of the object the status is about.' })),
  uid: opt(str(6, { description: 'UID of the object the status is about, when known.' })),
  causes: opt(list(4, StatusCause, { listType: 'atomic' }, { description: 'The individual causes of the failure, such as each invalid field.' })),
  retryAfterSeconds: opt(int32(5, { description: 'Seconds the client should wait before retrying, when the server suggests it.' })),
}, { description: 'More about a Status: the object it concerns and each cause of a failure.' });
export type StatusDetails = Static<typeof StatusDetails>;

export const Status = object(`${P}.Status`, {
  kind: opt(Type.Literal('Status', { description: 'Always Status.' })),
  apiVersion: opt(Type.String({ description: 'Always v1.' })),
  metadata: opt(field(1, ListMeta, { 'x-orch-emit': 'always', description: 'List metadata; usually empty.' })),
  status: opt(str(2, { description: 'Success or Failure.' })),
  message: opt(str(3, { description: 'Human-readable description of what happened.' })),
  reason: opt(str(4, { description: 'Machine-readable reason of a failure, such as NotFound or Conflict; empty when none applies.' })),
  details: opt(field(5, StatusDetails, { description: 'More about the failure, depending on the reason.' })),
  code: opt(int32(6, { description: 'The HTTP status code of the response.' })),
}, { description: 'The result of a request that returns no object, and the body of every error.' });
export type Status = Static<typeof Status>;

export const Preconditions = object(`${P}.Preconditions`, {
  uid: opt(str(1, { 'x-orch-emit': 'pointer', description: 'The object is only deleted if its UID is this one.' })),
  resourceVersion: opt(str(2, { 'x-orch-emit': 'pointer', description: 'The object is only deleted if its resourceVersion is this one.' })),
}, { description: 'Conditions the object must meet for a delete to go ahead.' });

export const DeleteOptions = object(`${P}.DeleteOptions`, {
  kind: opt(Type.String({ description: 'DeleteOptions, when given.' })),
  apiVersion: opt(Type.String({ description: 'API version of the options, when given.' })),
  gracePeriodSeconds: opt(int64(1, {
    'x-orch-emit': 'pointer',
    description: 'Seconds the object may take to terminate; 0 means at once. Unset takes the default of the kind.',
  })),
  preconditions: opt(field(2, Preconditions, { description: 'Conditions the object must meet, or the delete fails with a conflict.' })),
  orphanDependents: opt(bool(3, {
    'x-orch-emit': 'pointer',
    description: 'Deprecated: use propagationPolicy. True orphans the dependents, false lets the garbage collector remove them.',
  })),
  propagationPolicy: opt(enumOf(4, ['Orphan', 'Background', 'Foreground'] as const, {
    'x-orch-emit': 'pointer',
    description: 'What happens to dependents: Orphan keeps them, Background removes them after the owner, Foreground removes them before the owner.',
  })),
  dryRun: opt(stringList(5, { listType: 'atomic' }, { description: 'When it holds All, every stage runs but nothing is persisted.' })),
}, { description: 'Options of a delete request.' });
export type DeleteOptions = Static<typeof DeleteOptions>;

export const WatchEvent = object(`${P}.WatchEvent`, {
  type: str(1, { description: 'ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.' }),
  object: raw(2, { description: 'The object as it is after the event (before it, for DELETED); a Status for ERROR; only metadata.resourceVersion for BOOKMARK.' }),
}, { required: ['type', 'object'], description: 'One change seen by a watch.' });

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
    apiVersion: opt(Type.String({
      description: 'Versioned schema of this representation of the object, as group/version (v1 for the core group). The server may reject versions it does not know.',
    })),
    kind: opt(Type.String({ description: 'The kind of the object, in CamelCase; the server infers it from the endpoint. Cannot be changed.' })),
    metadata: opt(field(1, ObjectMeta, { 'x-orch-emit': 'always', description: "The object's metadata: name, namespace, labels, annotations and more." })),
    ...properties,
  }, options);
}
