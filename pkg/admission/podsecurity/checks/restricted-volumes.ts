// Restricted, from v1.0 (replacing the baseline hostPath check): volumes only of the kinds that
// reach nothing of the node's or outside the cluster's control: configMap, csi, downwardAPI,
// emptyDir, ephemeral, persistentVolumeClaim, projected and secret. Any other source is named in
// the refusal, `unknown` for one the 1.30 policy does not know.
import type { Volume } from '../../../../api/core/v1/pod-template.js';
import { allowed, forbidden, joinQuote, pluralize, sortedSet, type Check } from '../check.js';
import { hostPathVolumesID } from './host-path-volumes.js';

const allowedSources = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'] as const;

/** The restricted sources in the order upstream looks for them. */
const namedSources = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder',
  'cephfs', 'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume',
  'scaleIO', 'storageos',
] as const;

const set = (v: Volume, source: string) => {
  const s = (v as Record<string, unknown>)[source];
  return s !== undefined && s !== null;
};

export const checkRestrictedVolumes: Check = {
  id: 'restrictedVolumes',
  level: 'restricted',
  versions: [{
    minimumVersion: 0,
    overrides: [hostPathVolumesID],
    checkPod: (_meta, spec) => {
      const bad: string[] = [];
      const types: string[] = [];
      for (const v of spec.volumes ?? []) {
        if (allowedSources.some((s) => set(v, s))) continue;
        bad.push(v.name);
        types.push(namedSources.find((s) => set(v, s)) ?? 'unknown');
      }
      if (bad.length === 0) return allowed;
      const sorted = sortedSet(types);
      return forbidden('restricted volume types', `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('restricted volume type', 'restricted volume types', sorted.length)} ${joinQuote(sorted)}`);
    },
  }],
};
