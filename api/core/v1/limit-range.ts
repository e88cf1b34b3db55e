import { type Static } from '@sinclair/typebox';
import { field, list, object, opt, str } from '../../schema.js';
import { resourceList } from '../../meta/v1/primitives.js';
import { topLevel } from '../../meta/v1/types.js';

const P = 'io.orch.api.core.v1';

/** The limit types that need no domain prefix. */
export const StandardLimitTypes = ['Pod', 'Container', 'PersistentVolumeClaim'] as const;

export const LimitRangeItem = object(`${P}.LimitRangeItem`, {
  type: str(1),
  max: opt(resourceList(2)),
  min: opt(resourceList(3)),
  default: opt(resourceList(4)),
  defaultRequest: opt(resourceList(5)),
  maxLimitRequestRatio: opt(resourceList(6)),
}, { required: ['type'] });
export type LimitRangeItem = Static<typeof LimitRangeItem>;

export const LimitRangeSpec = object(`${P}.LimitRangeSpec`, {
  limits: list(1, LimitRangeItem, { listType: 'atomic' }),
}, { required: ['limits'] });

export const LimitRange = topLevel(`${P}.LimitRange`, {
  spec: opt(field(2, LimitRangeSpec)),
});
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
