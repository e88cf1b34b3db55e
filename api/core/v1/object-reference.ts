// References from core objects to other objects (service account secrets, pull secrets, claim
// data sources). Shared by several kinds; field numbers follow upstream core/v1 generated.proto.
import { type Static } from '@sinclair/typebox';
import { object, opt, str } from '../../schema.js';

const P = 'io.orch.api.core.v1';

export const ObjectReference = object(`${P}.ObjectReference`, {
  kind: opt(str(1, { description: 'Kind of the object referred to.' })),
  namespace: opt(str(2, { description: 'Namespace of the object referred to; empty for a cluster-scoped object.' })),
  name: opt(str(3, { description: 'Name of the object referred to.' })),
  uid: opt(str(4, { description: 'UID of the object referred to, to tell it apart from a later object of the same name.' })),
  apiVersion: opt(str(5, { description: 'API version (group/version) of the object referred to.' })),
  resourceVersion: opt(str(6, { description: 'Resource version of the object the reference was taken from, when that matters.' })),
  fieldPath: opt(str(7, {
    description: 'Path to a part of the object when the reference is to that part rather than the whole, e.g. spec.containers{app}.',
  })),
}, {
  'x-orch-map-type': 'atomic',
  description: 'A reference to any object by kind, namespace and name, optionally pinned to its uid and resource version.',
});
export type ObjectReference = Static<typeof ObjectReference>;

export const LocalObjectReference = object(`${P}.LocalObjectReference`, {
  name: opt(str(1, {
    default: '',
    description: 'Name of the object referred to, in the same namespace. Effectively required; empty is accepted only for compatibility.',
  })),
}, { 'x-orch-map-type': 'atomic', description: 'A reference by name to an object in the same namespace.' });
export type LocalObjectReference = Static<typeof LocalObjectReference>;

export const TypedLocalObjectReference = object(`${P}.TypedLocalObjectReference`, {
  // Upstream's *string without omitempty: always written, null when unset.
  apiGroup: opt(str(1, { 'x-orch-emit': 'always', description: 'API group of the kind referred to; unset for the core group.' })),
  kind: str(2, { description: 'Kind of the object referred to.' }),
  name: str(3, { description: 'Name of the object referred to.' }),
}, {
  required: ['kind', 'name'],
  'x-orch-map-type': 'atomic',
  description: 'A reference to an object of a given kind and name in the same namespace.',
});
export type TypedLocalObjectReference = Static<typeof TypedLocalObjectReference>;

export const TypedObjectReference = object(`${P}.TypedObjectReference`, {
  // Upstream's *string without omitempty: always written, null when unset.
  apiGroup: opt(str(1, { 'x-orch-emit': 'always', description: 'API group of the kind referred to; unset for the core group.' })),
  kind: str(2, { description: 'Kind of the object referred to.' }),
  name: str(3, { description: 'Name of the object referred to.' }),
  namespace: opt(str(4, {
    'x-orch-emit': 'pointer',
    description: 'Namespace of the object referred to; the referring object\'s namespace when unset. Another namespace ' +
      'needs a ReferenceGrant there and the CrossNamespaceVolumeDataSource feature.',
  })),
}, { required: ['kind', 'name'], description: 'A reference to an object of a given kind and name, possibly in another namespace.' });
export type TypedObjectReference = Static<typeof TypedObjectReference>;
