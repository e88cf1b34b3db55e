// The pvc-protection controller (upstream's pvcprotection): a claim being deleted keeps the
// <domain>/pvc-protection finalizer the StorageObjectInUseProtection admission plug-in gave it
// while a scheduled pod uses it, through a persistentVolumeClaim volume or as the claim of one of
// its generic ephemeral volumes (unless that pod is already shut down), and loses it once none
// does; claims made before the plug-in get the finalizer. The informer's pods are asked first, then
// a live list, so a pod not yet in the cache never loses its claim.
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import { RateLimitingQueue, deletedObject, objectKey, splitKey, type KubeObject } from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { isDeletionCandidate, needToAddFinalizer, withFinalizer } from '../finalizers.js';
import { ensurePodPVCIndex, ephemeralClaimName, podClaimKeys, podPVCIndex, type PodObject } from '../pod-pvc-index.js';
import { runWorkers, waitForCaches } from '../queue-workers.js';

type ClaimObject = PersistentVolumeClaim & KubeObject;

/** Killed and done with, or force-deleted: such a pod no longer holds its ephemeral claims (upstream's podIsShutDown). */
const isShutDown = (pod: PodObject) => pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionGracePeriodSeconds === 0;

/** Whether a node agent may be using the claim for the pod: the pod is scheduled and names it. */
function podUsesClaim(pod: PodObject, claim: ClaimObject): boolean {
  if (!pod.spec?.nodeName) return false;
  return (pod.spec.volumes ?? []).some((v) => (v.persistentVolumeClaim?.claimName === claim.metadata.name) ||
    (!isShutDown(pod) && v.ephemeral !== undefined && ephemeralClaimName(pod, v.name) === claim.metadata.name &&
      (claim.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.uid === pod.metadata.uid)));
}

/** Upstream's IsPodTerminated: finished, or being deleted with no container running. */
const isTerminated = (pod: PodObject) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed' ||
  (pod.metadata.deletionTimestamp !== undefined && (pod.status?.containerStatuses ?? []).every((c) => !c.state?.running));

/** A pod that can no longer be in use (gone, terminated, or never scheduled) may free the claims it names. */
const mayFreeClaims = (pod: PodObject, deleted: boolean) => deleted || !pod.spec?.nodeName || isTerminated(pod);

class PVCProtectionController implements Controller {
  readonly name = 'pvc-protection';

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal } = ctx;
    const finalizer = ctx.domain.key('pvc-protection');
    const queue = new RateLimitingQueue<string>();
    const claims = informers.forResource<ClaimObject>('', 'v1', 'persistentvolumeclaims');
    const pods = informers.forResource<PodObject>('', 'v1', 'pods');
    ensurePodPVCIndex(pods);
    const claimsClient = client.resource<ClaimObject>('', 'v1', 'persistentvolumeclaims');
    const podsClient = client.resource<PodObject>('', 'v1', 'pods');

    const claimChanged = (c: ClaimObject) => {
      if (needToAddFinalizer(c, finalizer) || isDeletionCandidate(c, finalizer)) queue.add(objectKey(c));
    };
    const podChanged = (pod: PodObject, deleted: boolean) => {
      if (mayFreeClaims(pod, deleted)) for (const key of podClaimKeys(pod)) queue.add(key);
    };
    const removers = [
      claims.addEventHandler({ onAdd: claimChanged, onUpdate: (_old, c) => claimChanged(c) }),
      pods.addEventHandler({
        onAdd: (p) => podChanged(p, false),
        // An update may hide the deletion of one pod and the creation of another of the same name.
        onUpdate: (old, p) => {
          podChanged(p, false);
          if (old.metadata.uid !== p.metadata.uid) podChanged(old, true);
        },
        onDelete: (p) => podChanged(deletedObject(p), true),
      }),
    ];

    const isBeingUsed = async (claim: ClaimObject): Promise<boolean> => {
      const key = objectKey(claim);
      if (pods.indexer.byIndex(podPVCIndex, key).some((p) => podUsesClaim(p, claim))) return true;
      logger.v(4).info('No Pod using PVC was found in the Informer\'s cache', { PVC: key });
      // The cache may not hold a pod made a moment ago: only a live list makes it safe to let go.
      const live = await podsClient.namespace(claim.metadata.namespace ?? '').list();
      const user = live.items.find((p) => podUsesClaim(p, claim));
      if (user) {
        logger.v(2).info('Pod uses PVC', { pod: objectKey(user), PVC: key });
        return true;
      }
      logger.v(2).info('PVC is unused', { PVC: key });
      return false;
    };

    const sync = async (key: string): Promise<void> => {
      const { namespace } = splitKey(key);
      const claim = claims.indexer.getByKey(key);
      if (!claim) return;
      if (isDeletionCandidate(claim, finalizer)) {
        if (!(await isBeingUsed(claim))) {
          await claimsClient.namespace(namespace).update(withFinalizer(claim, finalizer, false));
          logger.info('Removed protection finalizer from PVC', { PVC: key });
          return;
        }
        logger.v(2).info('Keeping PVC because it is being used', { PVC: key });
      }
      if (needToAddFinalizer(claim, finalizer)) {
        await claimsClient.namespace(namespace).update(withFinalizer(claim, finalizer, true));
        logger.v(3).info('Added protection finalizer to PVC', { PVC: key });
      }
    };

    try {
      if (!(await waitForCaches(signal, [claims, pods]))) return;
      logger.info('Starting PVC protection controller');
      await runWorkers(this.name, queue, 1, signal, sync, logger);
    } finally {
      for (const r of removers) r();
      queue.shutDown();
    }
  }
}

export const pvcProtectionController: ControllerFactory = () => new PVCProtectionController();
