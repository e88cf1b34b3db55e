// The pv-protection controller (upstream's pvprotection): a volume being deleted keeps the
// <domain>/pv-protection finalizer while its phase is Bound (the persistentvolume-binder sets the
// phase) and loses it once the volume is not bound; volumes made before the admission plug-in get
// the finalizer.
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import { RateLimitingQueue, objectKey, type KubeObject } from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { isDeletionCandidate, needToAddFinalizer, withFinalizer } from '../finalizers.js';
import { runWorkers, waitForCaches } from '../queue-workers.js';

type VolumeObject = PersistentVolume & KubeObject;

class PVProtectionController implements Controller {
  readonly name = 'pv-protection';

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal } = ctx;
    const finalizer = ctx.domain.key('pv-protection');
    const queue = new RateLimitingQueue<string>();
    const volumes = informers.forResource<VolumeObject>('', 'v1', 'persistentvolumes');
    const volumesClient = client.resource<VolumeObject>('', 'v1', 'persistentvolumes');
    const changed = (pv: VolumeObject) => {
      if (needToAddFinalizer(pv, finalizer) || isDeletionCandidate(pv, finalizer)) queue.add(objectKey(pv));
    };
    const remove = volumes.addEventHandler({ onAdd: changed, onUpdate: (_old, pv) => changed(pv) });

    const sync = async (name: string): Promise<void> => {
      const pv = volumes.indexer.getByKey(name);
      if (!pv) return;
      if (isDeletionCandidate(pv, finalizer)) {
        if (pv.status?.phase !== 'Bound') {
          await volumesClient.update(withFinalizer(pv, finalizer, false));
          logger.v(3).info('Removed protection finalizer from PV', { PV: name });
          return;
        }
        logger.v(4).info('Keeping PV because it is being used', { PV: name });
      }
      if (needToAddFinalizer(pv, finalizer)) {
        await volumesClient.update(withFinalizer(pv, finalizer, true));
        logger.v(3).info('Added protection finalizer to PV', { PV: name });
      }
    };

    try {
      if (!(await waitForCaches(signal, [volumes]))) return;
      logger.info('Starting PV protection controller');
      await runWorkers(this.name, queue, 1, signal, sync, logger);
    } finally {
      remove();
      queue.shutDown();
    }
  }
}

export const pvProtectionController: ControllerFactory = () => new PVProtectionController();
