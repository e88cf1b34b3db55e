// References from core objects to other objects (service account secrets, pull secrets, claim
// data sources). Shared by several kinds; field numbers follow upstream core/v1 generated.proto.
import { type Static } from '@sinclair/typebox';
import { object, opt, str } from '../../schema.js';

const P = 'io.orch.api.core.v1';

export const ObjectReference = object(`${P}.ObjectReference`, {
  kind: opt(str(1)),
  namespace: opt(str(2)),
  name: opt(str(3)),
  uid: opt(str(4)),
  apiVersion: opt(str(5)),
  resourceVersion: opt(str(6)),
  fieldPath: opt(str(7)),
}, { 'x-orch-map-type': 'atomic' });
export type ObjectReference = Static<typeof ObjectReference>;

export const LocalObjectReference = object(`${P}.LocalObjectReference`, {
  name: opt(str(1, { default: '' })),
}, { 'x-orch-map-type': 'atomic' });
export type LocalObjectReference = Static<typeof LocalObjectReference>;

export const TypedLocalObjectReference = object(`${P}.TypedLocalObjectReference`, {
  apiGroup: opt(str(1)),
  kind: str(2),
  name: str(3),
}, { required: ['kind', 'name'], 'x-orch-map-type': 'atomic' });
export type TypedLocalObjectReference = Static<typeof TypedLocalObjectReference>;

export const TypedObjectReference = object(`${P}.TypedObjectReference`, {
  apiGroup: opt(str(1)),
  kind: str(2),
  name: str(3),
  namespace: opt(str(4)),
}, { required: ['kind', 'name'] });
export type TypedObjectReference = Static<typeof TypedObjectReference>;
