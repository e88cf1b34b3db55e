// Pods by the claims their volumes use (upstream's PodPVCIndex): `namespace/claim` for each volume
// that names a PersistentVolumeClaim, and for each generic ephemeral volume the claim made for it,
// `<pod>-<volume>`. The pvc-protection and persistentvolume-binder controllers share it on the
// one pods informer.
import type { Pod } from '../../api/core/v1/pod.js';
import type { KubeObject, SharedIndexInformer } from '../client/index.js';

export type PodObject = Pod & KubeObject;

/** The index's name on the pods informer. */
export const podPVCIndex = 'pod-pvc-index';

/** The claim made for a pod's generic ephemeral volume (upstream's ephemeral.VolumeClaimName). */
export const ephemeralClaimName = (pod: PodObject, volumeName: string) => `${pod.metadata.name ?? ''}-${volumeName}`;

/** The claims a pod's volumes use, each as `namespace/name`. */
export function podClaimKeys(pod: PodObject): string[] {
  const ns = pod.metadata.namespace ?? '';
  const keys: string[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim) keys.push(`${ns}/${v.persistentVolumeClaim.claimName}`);
    else if (v.ephemeral) keys.push(`${ns}/${ephemeralClaimName(pod, v.name)}`);
  }
  return keys;
}

/** Adds the index to the pods informer unless another controller already did. */
export function ensurePodPVCIndex(pods: SharedIndexInformer<PodObject>): void {
  if (!pods.indexer.hasIndexer(podPVCIndex)) pods.addIndexer(podPVCIndex, podClaimKeys);
}
