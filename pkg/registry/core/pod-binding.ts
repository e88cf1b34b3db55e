// pods/<name>/binding and namespaces/<ns>/bindings: a Binding assigns a pending pod to a node in
// one compare-and-swap, as upstream's BindingREST does, and is answered with a Status Success.
import { formatTime } from '../../../api/meta/v1/primitives.js';
import type { Binding, Pod, PodStatus } from '../../../api/core/v1/pod.js';
import type { Status } from '../../../api/meta/v1/types.js';
import { newBadRequest, newConflict, newInvalid, newNotFound, StatusError } from '../../runtime/errors.js';
import { notSupported, required, type FieldError } from '../../runtime/field-errors.js';
import type { StoredObject } from '../../storage/interface.js';
import type { Store } from '../generic/store.js';

/** What a binding request carries (the shape of the endpoints layer's virtual request). */
export interface SubresourceCreate {
  obj: StoredObject;
  namespace: string;
  /** The pod's name from the URL; '' for namespaces/<ns>/bindings. */
  name: string;
  dryRun: boolean;
}

/** The answer upstream gives to a binding or an eviction that went through. */
export const successStatus = (): Status => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });

/** Upstream ValidatePodBinding. */
function validateBinding(b: Binding): FieldError[] {
  const errs: FieldError[] = [];
  const kind = b.target?.kind ?? '';
  if (kind !== '' && kind !== 'Node') errs.push(notSupported('target.kind', kind, ['Node', '<empty>']));
  if (!b.target?.name) errs.push(required('target.name', ''));
  return errs;
}

/** Sets the PodScheduled condition to True, as upstream's UpdatePodCondition does. */
function markScheduled(status: PodStatus): void {
  const conditions = status.conditions ?? [];
  const existing = conditions.find((c) => c.type === 'PodScheduled');
  if (existing) {
    if (existing.status !== 'True') {
      existing.status = 'True';
      existing.lastTransitionTime = formatTime(new Date());
      delete existing.reason;
      delete existing.message;
    }
  } else {
    conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null as unknown as string, lastTransitionTime: formatTime(new Date()) });
  }
  status.conditions = conditions;
}

const podsBinding = { group: '', resource: 'pods/binding' };

/** The handler of pods/<name>/binding (fromURL) or of namespaces/<ns>/bindings. */
export function bindingHandler(pods: () => Store | undefined, fromURL: boolean) {
  return async (req: SubresourceCreate): Promise<StoredObject> => {
    const store = pods();
    if (!store) throw newNotFound({ group: '', resource: 'pods' }, req.name);
    const binding = req.obj as unknown as Binding;
    const name = binding.metadata?.name ?? '';
    if (fromURL && name !== req.name) throw newBadRequest('name in URL does not match name in Binding object');
    if (binding.metadata?.namespace && binding.metadata.namespace !== req.namespace) {
      throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    const errs = validateBinding(binding);
    if (errs.length > 0) throw newInvalid('Binding', '', name, errs);
    const node = binding.target.name!;
    const meta = binding.metadata ?? {};
    const preconditions = {
      ...(meta.uid ? { uid: meta.uid } : {}),
      ...(meta.resourceVersion ? { resourceVersion: meta.resourceVersion } : {}),
    };
    try {
      await store.mutate(req.namespace, name, (current) => {
        const pod = current as unknown as Pod & { metadata: NonNullable<Pod['metadata']> };
        const spec = pod.spec!;
        if (pod.metadata.deletionTimestamp) throw newConflict(podsBinding, name, `pod ${name} is being deleted, cannot be assigned to a host`);
        if (spec.nodeName) throw newConflict(podsBinding, name, `pod ${name} is already assigned to node ${JSON.stringify(spec.nodeName)}`);
        if ((spec.schedulingGates ?? []).length > 0) throw newConflict(podsBinding, name, `pod ${name} has non-empty .spec.schedulingGates`);
        spec.nodeName = node;
        if (meta.annotations && Object.keys(meta.annotations).length > 0) {
          pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), ...meta.annotations };
        }
        pod.status ??= {};
        markScheduled(pod.status);
        return current;
      }, { dryRun: req.dryRun, ...(Object.keys(preconditions).length > 0 ? { preconditions } : {}) });
    } catch (e) {
      if (e instanceof StatusError && e.code === 409 && e.reason === 'Conflict' && e.status.details?.kind !== 'pods/binding') {
        throw newConflict(podsBinding, name, e.message.replace(/^Operation cannot be fulfilled on [^:]+: /, ''));
      }
      throw e;
    }
    return successStatus() as unknown as StoredObject;
  };
}
