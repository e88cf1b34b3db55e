// storage.<domain>/v1: storage classes and storage driver descriptions.
import { ageColumn, nameColumn } from '../../printer-column.js';
import type { ApiDomain } from '../../domain.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { CSIDriver, defaultCSIDriver } from './csi-driver.js';
import { StorageClass } from './storage-class.js';

export const storageV1 = (d: ApiDomain): GroupVersionRegistration => {
  const defaultClassKeys = [d.key('is-default-class', 'storageclass'), d.key('is-default-class', 'storageclass.beta')];
  const isDefaultClass = (a: Record<string, string> | undefined) => defaultClassKeys.some((k) => a?.[k] === 'true');
  return {
    group: d.group('storage'),
    version: 'v1',
    stability: 'stable',
    kinds: [
      defineKind({
        kind: 'CSIDriver', resource: 'csidrivers', singular: 'csidriver', namespaced: false,
        schema: CSIDriver, defaulter: defaultCSIDriver,
        printerColumns: [
          nameColumn,
          { name: 'AttachRequired', type: 'boolean', description: 'Whether volumes need an attach operation (default true).', priority: 0,
            cell: (d) => d.spec?.attachRequired ?? true },
          { name: 'PodInfoOnMount', type: 'boolean', description: 'Whether mounts receive pod information.', priority: 0,
            cell: (d) => d.spec?.podInfoOnMount ?? false },
          { name: 'StorageCapacity', type: 'boolean', description: 'Whether the scheduler considers reported storage capacity.', priority: 0,
            cell: (d) => d.spec?.storageCapacity ?? false },
          { name: 'TokenRequests', type: 'string', description: 'Audiences of the service account tokens passed on mount.', priority: 0,
            cell: (d) => (d.spec?.tokenRequests === undefined ? '<unset>' : d.spec.tokenRequests.map((t) => t.audience).join(',')) },
          { name: 'RequiresRepublish', type: 'boolean', description: 'Whether volumes are mounted again periodically.', priority: 0,
            cell: (d) => d.spec?.requiresRepublish ?? false },
          { name: 'Modes', type: 'string', description: 'Volume lifecycle modes the driver supports.', priority: 0,
            cell: (d) => (d.spec?.volumeLifecycleModes ?? []).join(',') || '<none>' },
          ageColumn,
        ],
      }),
      defineKind({
        kind: 'StorageClass', resource: 'storageclasses', singular: 'storageclass', namespaced: false,
        shortNames: ['sc'], schema: StorageClass,
        printerColumns: [
          // Upstream marks the cluster's default class beside its name.
          { ...nameColumn, cell: (c) => `${c.metadata?.name ?? ''}${isDefaultClass(c.metadata?.annotations) ? ' (default)' : ''}` },
          { name: 'Provisioner', type: 'string', description: 'The volume plugin that provisions volumes of this class.', priority: 0,
            cell: (c) => c.provisioner ?? '' },
          { name: 'ReclaimPolicy', type: 'string', description: 'What happens to released volumes.', priority: 0,
            cell: (c) => c.reclaimPolicy ?? 'Delete' },
          { name: 'VolumeBindingMode', type: 'string', description: 'When claims are bound and volumes provisioned.', priority: 0,
            cell: (c) => c.volumeBindingMode ?? 'Immediate' },
          { name: 'AllowVolumeExpansion', type: 'string', description: 'Whether claims of this class may be resized.', priority: 0,
            cell: (c) => c.allowVolumeExpansion ?? false },
          ageColumn,
        ],
      }),
    ],
  };
};
