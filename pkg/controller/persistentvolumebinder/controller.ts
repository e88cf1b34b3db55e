// The persistentvolume-binder controller (upstream's PersistentVolumeController, static binding
// only): one queue of claims and one of volumes, each worked by one worker as upstream's are, fed
// by the informers and by a full resync every --pvclaimbinder-sync-period, so a Pending claim finds
// a volume made later and a volume whose claim went is reclaimed. The syncs are in binder.ts.
import type { StorageClass } from '../../../api/storage/v1/storage-class.js';
import { EventRecorder, RateLimitingQueue, deletedObject, objectKey, type KubeObject } from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { ensurePodPVCIndex, type PodObject } from '../pod-pvc-index.js';
import { runWorkers, waitForCaches } from '../queue-workers.js';
import { binderKeys } from './annotations.js';
import { Binder } from './binder.js';
import { FreshCache } from './fresh-cache.js';
import type { ClaimObject, VolumeObject } from './volume-matching.js';

export interface PersistentVolumeBinderOptions {
  /** --pvclaimbinder-sync-period: how often every claim and volume is synced again. */
  syncPeriodMs: number;
}

class PersistentVolumeBinderController implements Controller {
  readonly name = 'persistentvolume-binder';

  constructor(private readonly opts: PersistentVolumeBinderOptions) {}

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal, domain } = ctx;
    const claimQueue = new RateLimitingQueue<string>();
    const volumeQueue = new RateLimitingQueue<string>();
    const claims = informers.forResource<ClaimObject>('', 'v1', 'persistentvolumeclaims');
    const volumes = informers.forResource<VolumeObject>('', 'v1', 'persistentvolumes');
    const classes = informers.forResource<StorageClass & KubeObject>(domain.group('storage'), 'v1', 'storageclasses');
    const pods = informers.forResource<PodObject>('', 'v1', 'pods');
    ensurePodPVCIndex(pods);
    const claimCache = new FreshCache(claims.indexer, objectKey);
    const volumeCache = new FreshCache(volumes.indexer, objectKey);
    const binder = new Binder({
      claims: claimCache, volumes: volumeCache, classes: classes.indexer, pods: pods.indexer,
      claimsClient: client.resource<ClaimObject>('', 'v1', 'persistentvolumeclaims'),
      volumesClient: client.resource<VolumeObject>('', 'v1', 'persistentvolumes'),
      recorder: new EventRecorder(client, 'persistentvolume-controller', logger),
      logger, keys: binderKeys(domain),
      enqueueClaim: (key) => claimQueue.add(key),
    });

    const removers = [
      claims.addEventHandler({
        onAdd: (c) => claimQueue.add(objectKey(c)),
        onUpdate: (_old, c) => claimQueue.add(objectKey(c)),
        // The volume of a deleted claim is released at once rather than at the next resync.
        onDelete: (o) => {
          const c = deletedObject(o);
          claimCache.forget(objectKey(c));
          if (c.spec?.volumeName) volumeQueue.add(c.spec.volumeName);
        },
      }),
      volumes.addEventHandler({
        onAdd: (v) => volumeQueue.add(objectKey(v)),
        onUpdate: (_old, v) => volumeQueue.add(objectKey(v)),
        // A claim whose volume is deleted becomes Lost.
        onDelete: (o) => {
          const v = deletedObject(o);
          volumeCache.forget(objectKey(v));
          const ref = v.spec?.claimRef;
          if (ref?.name) claimQueue.add(`${ref.namespace ?? ''}/${ref.name}`);
        },
      }),
    ];
    const resync = setInterval(() => {
      logger.v(4).info('Resyncing PV controller');
      for (const key of claims.indexer.listKeys()) claimQueue.add(key);
      for (const key of volumes.indexer.listKeys()) volumeQueue.add(key);
    }, this.opts.syncPeriodMs);

    try {
      if (!(await waitForCaches(signal, [claims, volumes, classes, pods]))) return;
      logger.info('Starting persistent volume controller');
      await Promise.all([
        runWorkers(this.name, volumeQueue, 1, signal, (k) => binder.syncVolume(k), logger),
        runWorkers(this.name, claimQueue, 1, signal, (k) => binder.syncClaim(k), logger),
      ]);
    } finally {
      clearInterval(resync);
      for (const r of removers) r();
      claimQueue.shutDown();
      volumeQueue.shutDown();
    }
  }
}

export const persistentVolumeBinderController = (opts: PersistentVolumeBinderOptions): ControllerFactory => () => new PersistentVolumeBinderController(opts);
