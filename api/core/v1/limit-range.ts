import { type Static } from '@sinclair/typebox';
import { field, list, object, opt, str } from '../../schema.js';
import { resourceList } from '../../meta/v1/primitives.js';
import { topLevel } from '../../meta/v1/types.js';

const P = 'io.orch.api.core.v1';

/** The limit types that need no domain prefix. */
export const StandardLimitTypes = ['Pod', 'Container', 'PersistentVolumeClaim'] as const;

export const LimitRangeItem = object(`${P}.LimitRangeItem`, {
  type: str(1, { description: 'What the limits apply to: Pod, Container or PersistentVolumeClaim.' }),
  max: opt(resourceList(2, { description: 'Most of each resource one object of this type may ask for.' })),
  min: opt(resourceList(3, { description: 'Least of each resource one object of this type must ask for.' })),
  default: opt(resourceList(4, { description: 'Limits given to a container that sets none; defaults to max.' })),
  defaultRequest: opt(resourceList(5, { description: 'Requests given to a container that sets none; defaults to the default limits, else min.' })),
  maxLimitRequestRatio: opt(resourceList(6, { description: 'Largest ratio of limit to request allowed for each resource.' })),
}, { required: ['type'], description: 'Limits on the resources of one type of object (pod, container or claim).' });
export type LimitRangeItem = Static<typeof LimitRangeItem>;

export const LimitRangeSpec = object(`${P}.LimitRangeSpec`, {
  limits: list(1, LimitRangeItem, { listType: 'atomic' }, { description: 'The limits, one entry per type of object.' }),
}, { required: ['limits'], description: 'The limits a LimitRange enforces.' });

export const LimitRange = topLevel(`${P}.LimitRange`, {
  spec: opt(field(2, LimitRangeSpec, { 'x-orch-emit': 'always', description: 'The limits enforced in the namespace.' })),
}, { description: 'Per-object resource limits and defaults of a namespace, enforced when pods, containers and claims are created.' });
export type LimitRange = Static<typeof LimitRange>;

/**
 * Upstream SetDefaults_LimitRangeItem: for Container limits, a missing default limit takes the
 * max, and a missing default request takes the default limit, else the min.
 */
export function defaultLimitRange(lr: LimitRange): void {
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    const def = { ...(item.default ?? {}) };
    for (const [k, v] of Object.entries(item.max ?? {})) if (!(k in def)) def[k] = v;
    const req = { ...(item.defaultRequest ?? {}) };
    for (const [k, v] of Object.entries(def)) if (!(k in req)) req[k] = v;
    for (const [k, v] of Object.entries(item.min ?? {})) if (!(k in req)) req[k] = v;
    if (Object.keys(def).length > 0) item.default = def;
    if (Object.keys(req).length > 0) item.defaultRequest = req;
  }
}
