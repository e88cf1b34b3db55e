// The `scale` sub-resource: an autoscaling/v1 Scale view of a scalable object. Reads map the
// object onto a Scale; writes map the Scale's spec.replicas back and go through the object's own
// update (its strategy, validation, optimistic concurrency and generation), as upstream does.
import type { Scale } from '../../../api/autoscaling/v1/scale.js';
import { newBadRequest, newConflict, newInternalError, newInvalid, newNotFound } from '../../runtime/errors.js';
import { invalid } from '../../runtime/field-errors.js';
import type { ResourceInfo } from '../../runtime/scheme.js';
import type { StoredObject } from '../../storage/interface.js';
import type { Store, UpdateOptions } from './store.js';

import type { ScaleAdapter } from '../../../api/registration.js';

interface ScaleInfo {
  adapter: ScaleAdapter;
  /** The Scale kind (autoscaling/v1). */
  info: ResourceInfo;
}

function scaleOf(store: Store): ScaleInfo {
  const adapter = store.info.scale;
  const info = store.info.subresourceKinds.scale;
  if (!adapter || !info) throw new Error(`${store.info.resource} has no scale sub-resource`);
  return { adapter, info };
}

/** The Scale of `obj`: its identity, desired replicas, observed replicas and selector. */
export function toScale(scale: ScaleInfo, obj: StoredObject): Scale & StoredObject {
  const m = obj.metadata;
  return {
    kind: scale.info.kind,
    apiVersion: scale.info.apiVersion,
    metadata: {
      name: m.name!,
      ...(m.namespace ? { namespace: m.namespace } : {}),
      uid: m.uid!,
      resourceVersion: m.resourceVersion!,
      creationTimestamp: m.creationTimestamp!,
    },
    spec: { replicas: scale.adapter.specReplicas(obj) },
    status: { replicas: scale.adapter.statusReplicas(obj), selector: scale.adapter.selector(obj) },
  };
}

export async function getScale(store: Store, namespace: string, name: string): Promise<StoredObject> {
  const scale = scaleOf(store);
  const obj = await store.get(namespace, name);
  // Upstream answers a custom resource without its replica count with an internal error.
  if (scale.adapter.hasSpecReplicas?.(obj) === false) throw newInternalError(new Error(`the spec replicas field ${JSON.stringify(specReplicasPathOf(store))} does not exist`));
  return toScale(scale, obj);
}

/** Where a custom resource keeps its replica count, for messages; the field name for built-in kinds. */
function specReplicasPathOf(store: Store): string {
  return store.info.custom?.scaleSpecReplicasPath ?? '.spec.replicas';
}

/** Marks a Scale whose object had no replica count, so an update that sets none is refused (upstream's sentinel). */
const UNSET_REPLICAS = -2147483648;

/**
 * Sets the replicas of the object from the Scale `next` computes from the current one. The
 * Scale's resourceVersion, when given, is a precondition on the object, and its uid must match.
 * `record` sees the object as changed (its managedFields are recorded there).
 */
export async function updateScale(
  store: Store, namespace: string, name: string, next: (current: StoredObject) => Promise<StoredObject>, opts: UpdateOptions = {},
  record?: (obj: StoredObject, current: StoredObject) => StoredObject,
): Promise<StoredObject> {
  const scale = scaleOf(store);
  const { object } = await store.update(namespace, name, async (current) => {
    if (!current) throw newNotFound(store.info.groupResource, name);
    const before = toScale(scale, current);
    if (scale.adapter.hasSpecReplicas?.(current) === false) before.spec = { replicas: UNSET_REPLICAS };
    const wanted = (await next(before)) as Scale & StoredObject;
    if (wanted.metadata.name !== name) {
      throw newBadRequest(`the name of the object (${wanted.metadata.name ?? ''}) does not match the name on the URL (${name})`);
    }
    if (wanted.metadata.uid && wanted.metadata.uid !== current.metadata.uid) {
      throw newConflict(store.info.groupResource, name, `Precondition failed: UID in precondition: ${wanted.metadata.uid}, UID in object meta: ${current.metadata.uid ?? ''}`);
    }
    const replicas = wanted.spec?.replicas ?? 0;
    if (replicas === UNSET_REPLICAS) throw newBadRequest(`the spec replicas field ${JSON.stringify(specReplicasPathOf(store))} cannot be empty`);
    if (replicas < 0) {
      throw newInvalid(scale.info.kind, scale.info.group, name, [invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
    }
    const obj = structuredClone(current);
    scale.adapter.setSpecReplicas(obj, replicas);
    if (wanted.metadata.resourceVersion) obj.metadata.resourceVersion = wanted.metadata.resourceVersion;
    return record ? record(obj, current) : obj;
  }, opts);
  return toScale(scale, object);
}
