// The annotation keys and names the binder reads and writes, upstream's pv.kubernetes.io/... and
// volume.kubernetes.io/... keys derived from the platform domain.
import type { ApiDomain } from '../../../api/domain.js';
import { betaStorageClassAnnotation } from '../../../api/core/v1/register.js';

export interface BinderKeys {
  /** pv.<keyDomain>/bind-completed: the claim's binding is done. */
  bindCompleted: string;
  /** pv.<keyDomain>/bound-by-controller: the controller, not a user, made this side of the binding. */
  boundByController: string;
  /** pv.<keyDomain>/provisioned-by: the provisioner that made the volume. */
  provisionedBy: string;
  /** volume.<keyDomain>/selected-node: the scheduler chose a node for a delayed-binding claim. */
  selectedNode: string;
  /** volume.<keyDomain>/storage-provisioner and its beta twin: the external provisioner asked for. */
  storageProvisioner: string;
  betaStorageProvisioner: string;
  /** volume.beta.<keyDomain>/storage-class: the class before spec.storageClassName. */
  betaStorageClass: string;
  /** storageclass(.beta).<keyDomain>/is-default-class. */
  defaultClass: string[];
  /** storage.<domain>: the StorageClass group, as upstream's not-found message names it. */
  storageGroup: string;
  /** `<keyDomain>/`: the prefix of in-tree plugin names (upstream's kubernetes.io/). */
  inTreePrefix: string;
}

export function binderKeys(d: ApiDomain): BinderKeys {
  return {
    bindCompleted: d.key('bind-completed', 'pv'),
    boundByController: d.key('bound-by-controller', 'pv'),
    provisionedBy: d.key('provisioned-by', 'pv'),
    selectedNode: d.key('selected-node', 'volume'),
    storageProvisioner: d.key('storage-provisioner', 'volume'),
    betaStorageProvisioner: d.key('storage-provisioner', 'volume.beta'),
    betaStorageClass: betaStorageClassAnnotation(d),
    defaultClass: [d.key('is-default-class', 'storageclass'), d.key('is-default-class', 'storageclass.beta')],
    storageGroup: d.group('storage'),
    inTreePrefix: `${d.keyDomain}/`,
  };
}
