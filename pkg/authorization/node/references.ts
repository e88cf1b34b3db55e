// What a pod or a PersistentVolume gives its node access to, read as upstream's graph does:
// podutil's secret and config map walks (image pull secrets, env, envFrom and volumes of every
// container kind, projected sources included), the service account, the claims of
// persistentVolumeClaim and ephemeral volumes, and the secrets of a bound PV that the kubelet
// itself uses (pvutil.VisitPVSecretNames with kubeletVisible).
import type { ApiDomain } from '../../../api/domain.js';
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { isMirrorPod, podConfigMapNames, podSecretNames } from '../../admission/podutil/references.js';
import type { PersistentVolumeReferences, PodReferences } from './graph.js';

/**
 * The references of a pod bound to a node. A mirror pod gets none: a node creates its mirror pods
 * itself, and must never grant itself access by doing so (NodeRestriction refuses such pods; this
 * is the defence in depth upstream keeps).
 */
export function podReferences(pod: Pod, domain: ApiDomain): PodReferences {
  const namespace = pod.metadata?.namespace ?? '';
  const name = pod.metadata?.name ?? '';
  const nodeName = pod.spec?.nodeName ?? '';
  if (isMirrorPod(pod, domain)) return { namespace, name, nodeName, serviceAccount: '', secrets: [], configMaps: [], claims: [] };
  const claims: string[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim) claims.push(v.persistentVolumeClaim.claimName);
    // The claim an ephemeral volume is given is named for the pod and the volume (upstream's ephemeral.VolumeClaimName).
    else if (v.ephemeral) claims.push(`${name}-${v.name}`);
  }
  return {
    namespace, name, nodeName,
    serviceAccount: pod.spec?.serviceAccountName ?? '',
    secrets: podSecretNames(pod),
    configMaps: podConfigMapNames(pod),
    claims: claims.filter((c) => c !== ''),
  };
}

type SecretRef = { name?: string; namespace?: string } | undefined;

/** The references of a PV bound to a claim; undefined for a PV bound to none. */
export function persistentVolumeReferences(pv: PersistentVolume): PersistentVolumeReferences | undefined {
  const claimRef = pv.spec?.claimRef;
  if (!claimRef) return undefined;
  const claimNamespace = claimRef.namespace ?? '';
  const secrets: { namespace: string; name: string }[] = [];
  // Older PVs name no namespace on these references: the claim's namespace is meant.
  const visit = (ref: SecretRef, namespace = ref?.namespace || claimNamespace) => {
    if (ref?.name) secrets.push({ namespace, name: ref.name });
  };
  const s = pv.spec ?? {};
  if (s.azureFile) visit({ name: s.azureFile.secretName }, s.azureFile.secretNamespace || claimNamespace);
  else if (s.cephfs) visit(s.cephfs.secretRef);
  else if (s.cinder) visit(s.cinder.secretRef, s.cinder.secretRef?.namespace ?? '');
  else if (s.flexVolume) visit(s.flexVolume.secretRef);
  else if (s.rbd) visit(s.rbd.secretRef);
  else if (s.scaleIO) visit(s.scaleIO.secretRef);
  else if (s.iscsi) visit(s.iscsi.secretRef);
  else if (s.storageos) visit(s.storageos.secretRef, s.storageos.secretRef?.namespace ?? '');
  else if (s.csi) {
    // The controller's secrets (publish, expand) are never the kubelet's to read.
    for (const ref of [s.csi.nodePublishSecretRef, s.csi.nodeStageSecretRef, s.csi.nodeExpandSecretRef]) visit(ref, ref?.namespace ?? '');
  }
  return { claim: { namespace: claimNamespace, name: claimRef.name ?? '' }, secrets };
}
