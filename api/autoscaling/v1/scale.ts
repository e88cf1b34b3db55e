// autoscaling/v1 Scale: the `scale` sub-resource of scalable kinds (StatefulSet today), as
// upstream serves it. It is no resource of its own: the kinds that have it say how their replica
// counts and selector map onto it (KindRegistration.scale).
import { type Static } from '@sinclair/typebox';
import type { SubresourceKind } from '../../registration.js';
import { field, int32, object, opt, str } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';

const P = 'io.orch.api.autoscaling.v1';

export const ScaleGroup = 'autoscaling';
export const ScaleVersion = 'v1';

export const ScaleSpec = object(`${P}.ScaleSpec`, {
  replicas: opt(int32(1, { description: 'The desired number of instances of the scaled object.' })),
}, { description: 'The desired state of a scale sub-resource.' });

export const ScaleStatus = object(`${P}.ScaleStatus`, {
  replicas: int32(1, { description: 'The number of instances the scaled object has observed.' }),
  selector: opt(str(2, { description: 'The label query over the pods counted in replicas, in the string form of label selectors (e.g. app=web).' })),
}, { required: ['replicas'], description: 'The observed state of a scale sub-resource.' });

export const Scale = topLevel(`${P}.Scale`, {
  spec: opt(field(2, ScaleSpec, { description: 'The desired replica count; changing it scales the object.' })),
  status: opt(field(3, ScaleStatus, { description: 'The current replica count and selector; read-only.' })),
}, { description: 'The replica count of a scalable object, read and written through its scale sub-resource.' });
export type Scale = Static<typeof Scale>;

/** The scale sub-resource as a kind registration declares it. */
export const scaleKind: SubresourceKind = { group: ScaleGroup, version: ScaleVersion, kind: 'Scale', schema: Scale, verbs: ['get', 'patch', 'update'] };
