// What a pod names of other objects, as upstream's podutil.VisitPodSecretNames and
// VisitPodConfigmapNames see it (every container kind included), for the plug-ins that refuse pods
// naming secrets or config maps (ServiceAccount for mirror pods, NodeRestriction).
import type { ApiDomain } from '../../../api/domain.js';

type Named = { name?: string } | undefined;

/** The few pod fields these walks read, typed locally (the Pod kind is being added elsewhere). */
export interface ContainerRefs {
  name?: string;
  env?: { name?: string; valueFrom?: { secretKeyRef?: Named; configMapKeyRef?: Named } }[];
  envFrom?: { secretRef?: Named; configMapRef?: Named }[];
  volumeMounts?: { name?: string; mountPath?: string; readOnly?: boolean }[];
}

export interface VolumeRefs {
  name?: string;
  secret?: { secretName?: string };
  configMap?: { name?: string };
  azureFile?: { secretName?: string };
  cephfs?: { secretRef?: Named };
  cinder?: { secretRef?: Named };
  flexVolume?: { secretRef?: Named };
  rbd?: { secretRef?: Named };
  scaleIO?: { secretRef?: Named };
  iscsi?: { secretRef?: Named };
  storageos?: { secretRef?: Named };
  csi?: { nodePublishSecretRef?: Named };
  persistentVolumeClaim?: { claimName?: string };
  projected?: {
    sources?: {
      secret?: Named;
      configMap?: Named;
      serviceAccountToken?: unknown;
      clusterTrustBundle?: unknown;
      downwardAPI?: unknown;
    }[];
    defaultMode?: number;
  };
}

export interface PodRefs {
  metadata?: { name?: string; namespace?: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  spec?: {
    serviceAccountName?: string;
    imagePullSecrets?: { name?: string }[];
    containers?: ContainerRefs[];
    initContainers?: ContainerRefs[];
    ephemeralContainers?: ContainerRefs[];
    volumes?: VolumeRefs[];
  };
}

/** The mirror pod annotation (upstream `kubernetes.io/config.mirror`). */
export const mirrorPodAnnotation = (domain: ApiDomain): string => domain.key('config.mirror');

export function isMirrorPod(pod: PodRefs, domain: ApiDomain): boolean {
  const ann = pod.metadata?.annotations;
  return !!ann && Object.prototype.hasOwnProperty.call(ann, mirrorPodAnnotation(domain));
}

/** Init, regular and ephemeral containers, in upstream's AllContainers order. */
export function allContainers(pod: PodRefs): ContainerRefs[] {
  const s = pod.spec ?? {};
  return [...(s.initContainers ?? []), ...(s.containers ?? []), ...(s.ephemeralContainers ?? [])];
}

/** Every secret name the pod references (pull secrets, env, envFrom, volumes), repeats included. */
export function podSecretNames(pod: PodRefs): string[] {
  const out: string[] = [];
  for (const r of pod.spec?.imagePullSecrets ?? []) out.push(r.name ?? '');
  for (const c of allContainers(pod)) {
    for (const ef of c.envFrom ?? []) if (ef.secretRef) out.push(ef.secretRef.name ?? '');
    for (const e of c.env ?? []) if (e.valueFrom?.secretKeyRef) out.push(e.valueFrom.secretKeyRef.name ?? '');
  }
  for (const v of pod.spec?.volumes ?? []) {
    if (v.azureFile) { if (v.azureFile.secretName) out.push(v.azureFile.secretName); }
    else if (v.cephfs) { if (v.cephfs.secretRef) out.push(v.cephfs.secretRef.name ?? ''); }
    else if (v.cinder) { if (v.cinder.secretRef) out.push(v.cinder.secretRef.name ?? ''); }
    else if (v.flexVolume) { if (v.flexVolume.secretRef) out.push(v.flexVolume.secretRef.name ?? ''); }
    else if (v.projected) { for (const s of v.projected.sources ?? []) if (s.secret) out.push(s.secret.name ?? ''); }
    else if (v.rbd) { if (v.rbd.secretRef) out.push(v.rbd.secretRef.name ?? ''); }
    else if (v.secret) out.push(v.secret.secretName ?? '');
    else if (v.scaleIO) { if (v.scaleIO.secretRef) out.push(v.scaleIO.secretRef.name ?? ''); }
    else if (v.iscsi) { if (v.iscsi.secretRef) out.push(v.iscsi.secretRef.name ?? ''); }
    else if (v.storageos) { if (v.storageos.secretRef) out.push(v.storageos.secretRef.name ?? ''); }
    else if (v.csi) { if (v.csi.nodePublishSecretRef) out.push(v.csi.nodePublishSecretRef.name ?? ''); }
  }
  return out;
}

/** Every config map name the pod references (env, envFrom, configMap and projected volumes). */
export function podConfigMapNames(pod: PodRefs): string[] {
  const out: string[] = [];
  for (const c of allContainers(pod)) {
    for (const ef of c.envFrom ?? []) if (ef.configMapRef) out.push(ef.configMapRef.name ?? '');
    for (const e of c.env ?? []) if (e.valueFrom?.configMapKeyRef) out.push(e.valueFrom.configMapKeyRef.name ?? '');
  }
  for (const v of pod.spec?.volumes ?? []) {
    if (v.projected) { for (const s of v.projected.sources ?? []) if (s.configMap) out.push(s.configMap.name ?? ''); }
    else if (v.configMap) out.push(v.configMap.name ?? '');
  }
  return out;
}
