// storage.orch.io/v1: storage driver descriptions.
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { CSIDriver, defaultCSIDriver } from './csi-driver.js';

export const storageV1: GroupVersionRegistration = {
  group: 'storage.orch.io',
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'CSIDriver', resource: 'csidrivers', singular: 'csidriver', namespaced: false,
      schema: CSIDriver, defaulter: defaultCSIDriver,
    }),
  ],
};
