// Upstream's ControllerRefManager (pkg/controller/controller_ref_manager.go): which objects a
// controller may count as its own. An object controlled by the owner stays its own while the
// selector matches and is released when it stops matching; an orphan that matches is adopted
// (never by an owner being deleted, nor when the object itself is); anything controlled by
// another owner is left alone. Adoption and release are strategic merge patches of
// ownerReferences keyed by uid, carrying the object's uid so a recreated namesake is not touched.
import type { LabelSelector } from '../../api/meta/v1/types.js';
import { isNotFound, type KubeObject, type ResourceClient } from '../client/index.js';
import type { Logger } from '../log/logger.js';
import { selectorMatches } from './label-selector.js';

export interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** The ownerReference with controller: true, if any. */
export function controllerRefOf(o: KubeObject): OwnerRef | undefined {
  return (o.metadata.ownerReferences ?? []).find((r) => r.controller === true) as OwnerRef | undefined;
}

/** The controller reference an owner puts on what it makes or adopts. */
export function newControllerRef(owner: KubeObject, apiVersion: string, kind: string): OwnerRef {
  return { apiVersion, kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

export interface ClaimOptions<T extends KubeObject> {
  owner: KubeObject;
  ownerApiVersion: string;
  ownerKind: string;
  selector: LabelSelector | undefined;
  /** The client of the claimed resource, in the owner's namespace. */
  client: ResourceClient<T>;
  /** Upstream's RecheckDeletionTimestamp: a fresh read of the owner before adopting, so a deleted or replaced owner adopts nothing. */
  canAdopt: () => Promise<boolean>;
  logger: Logger;
  what: string;
  /** Finalizers an adopted object gets in the same patch (the job controller's tracking finalizer). */
  adoptionFinalizers?: readonly string[];
}

/** The candidates the owner may count as its own after adopting and releasing as needed. */
export async function claimObjects<T extends KubeObject>(candidates: readonly T[], o: ClaimOptions<T>): Promise<T[]> {
  const ownerUID = o.owner.metadata.uid;
  const claimed: T[] = [];
  let adoptable: boolean | undefined;
  for (const obj of candidates) {
    const ref = controllerRefOf(obj);
    const matches = selectorMatches(o.selector, obj.metadata.labels);
    if (ref) {
      if (ref.uid !== ownerUID) continue;
      if (matches) {
        claimed.push(obj);
        continue;
      }
      // Owned but no longer selected: release it, unless we are going away anyway (the collector then decides).
      if (o.owner.metadata.deletionTimestamp) continue;
      o.logger.info(`Patching ${o.what} to remove its controllerRef`, { [o.what]: `${obj.metadata.namespace}/${obj.metadata.name}`, owner: `${o.ownerKind}/${o.owner.metadata.name}` });
      try {
        await o.client.patch(obj.metadata.name ?? '', 'strategic', { metadata: { ownerReferences: [{ $patch: 'delete', uid: ownerUID }], uid: obj.metadata.uid } });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
      continue;
    }
    if (!matches || o.owner.metadata.deletionTimestamp || obj.metadata.deletionTimestamp) continue;
    adoptable ??= await o.canAdopt();
    if (!adoptable) continue;
    o.logger.info(`Adopting ${o.what}`, { [o.what]: `${obj.metadata.namespace}/${obj.metadata.name}`, owner: `${o.ownerKind}/${o.owner.metadata.name}` });
    try {
      const adopted = await o.client.patch(obj.metadata.name ?? '', 'strategic', {
        metadata: {
          ownerReferences: [newControllerRef(o.owner, o.ownerApiVersion, o.ownerKind)], uid: obj.metadata.uid,
          ...(o.adoptionFinalizers?.length ? { finalizers: [...o.adoptionFinalizers] } : {}),
        },
      });
      claimed.push(adopted);
    } catch (e) {
      // Gone already: nothing to count.
      if (!isNotFound(e)) throw e;
    }
  }
  return claimed;
}
