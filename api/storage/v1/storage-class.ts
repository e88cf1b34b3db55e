import type { Static } from '@sinclair/typebox';
import { bool, enumOf, list, opt, str, stringList, stringMap } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';
import { TopologySelectorTerm } from '../../core/v1/topology-selector.js';

const P = 'io.orch.api.storage.v1';

export const PersistentVolumeReclaimPolicies = ['Delete', 'Recycle', 'Retain'] as const;
export const VolumeBindingModes = ['Immediate', 'WaitForFirstConsumer'] as const;

export const StorageClass = topLevel(`${P}.StorageClass`, {
  provisioner: str(2, { description: 'Name of the volume plugin that provisions volumes of this class. Cannot be changed.' }),
  parameters: opt(stringMap(3, {
    description: 'Settings passed to the provisioner; what they mean is up to it. At most 512 entries. Cannot be changed.',
  })),
  reclaimPolicy: opt(enumOf(4, PersistentVolumeReclaimPolicies, {
    default: 'Delete',
    'x-orch-emit': 'pointer',
    description: 'What happens to volumes provisioned for this class once released by their claim: Delete (the default) or Retain. Cannot be changed.',
  })),
  mountOptions: opt(stringList(5, { listType: 'atomic' }, {
    description: 'Mount options of volumes provisioned for this class, such as "ro" or "soft"; not checked, so a bad one makes mounts fail.',
  })),
  allowVolumeExpansion: opt(bool(6, {
    'x-orch-emit': 'pointer',
    description: 'Whether claims of this class may be resized by raising their storage request.',
  })),
  volumeBindingMode: opt(enumOf(7, VolumeBindingModes, {
    default: 'Immediate',
    'x-orch-emit': 'pointer',
    description: 'When claims are bound and volumes provisioned: Immediate (the default) or WaitForFirstConsumer, which waits for a pod that uses the claim. Cannot be changed.',
  })),
  allowedTopologies: opt(list(8, TopologySelectorTerm, { listType: 'atomic' }, {
    description: 'Topology domains volumes of this class may be provisioned in; empty means anywhere.',
  })),
}, { required: ['provisioner'], description: 'A class of dynamically provisioned persistent volumes: the provisioner and its settings.' });
export type StorageClass = Static<typeof StorageClass>;
