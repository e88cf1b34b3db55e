// The endpoints controller (upstream's EndpointController, `endpoint`): every Service with a
// selector (and not ExternalName) has an Endpoints object of its name holding the addresses of the
// pods the selector picks, ready or not, per port; it is made as soon as the service is, empty when
// no pod backs it yet, which is what lets the service proxy answer 503 "no endpoints available"
// rather than a NotFound. Its labels are the service's (plus the headless marker for a service
// without a cluster IP); it goes when the service goes, and Endpoints left without a service are
// deleted once at start. Services without a selector keep the Endpoints their users write.
import type { Endpoints } from '../../../api/core/v1/endpoints.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Service } from '../../../api/core/v1/service.js';
import { EventRecorder, RateLimitingQueue, deletedObject, hasStatusCause, isForbidden, isNotFound, objectKey, splitKey, type KubeObject } from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { sameStringMap } from '../../util/string-map.js';
import { runWorkers } from '../queue-workers.js';
import { selectedPods, serviceSelector, servicesSelecting, servicesToSyncOnPodChange } from '../service-pods.js';
import { MAX_ENDPOINT_ADDRESSES, serviceSubsets, truncateSubsets } from './endpoint-subsets.js';

type ServiceObject = Service & KubeObject;
type PodObject = Pod & KubeObject;
type EndpointsObject = Endpoints & KubeObject;

/** Subsets compared without the pods' resourceVersions, which change with every pod update. */
const subsetsKey = (e: Endpoints['subsets']) => JSON.stringify(e ?? [], (k, v: unknown) => (k === 'resourceVersion' ? undefined : v));

/** Upstream's maxRetries: a service whose sync keeps failing is dropped until its next event (5 ms doubling, about 82 s at the last). */
const maxRetries = 15;

export interface EndpointOptions {
  /** --endpoint-updates-batch-period: how long pod changes wait to be synced together. */
  batchPeriodMs: number;
}

class EndpointController implements Controller {
  readonly name = 'endpoint';

  constructor(private readonly opts: EndpointOptions) {}

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal, domain } = ctx;
    const queue = new RateLimitingQueue<string>();
    const services = informers.forResource<ServiceObject>('', 'v1', 'services');
    const pods = informers.forResource<PodObject>('', 'v1', 'pods');
    const endpoints = informers.forResource<EndpointsObject>('', 'v1', 'endpoints');
    const endpointsClient = client.resource<EndpointsObject>('', 'v1', 'endpoints');
    const recorder = new EventRecorder(client, 'endpoint-controller', logger);
    const headlessLabel = domain.key('headless', 'service');
    const overCapacity = domain.key('over-capacity', 'endpoints');
    const leaderAnnotation = domain.key('leader', 'control-plane.alpha');

    /** A new or deleted pod wakes every service that selects it, once the batch period is over. */
    const afterBatch = (svc: ServiceObject) => queue.addAfter(objectKey(svc), this.opts.batchPeriodMs);
    const enqueueFor = (p: PodObject) => servicesSelecting(services.indexer.byNamespace(p.metadata.namespace ?? ''), p).forEach(afterBatch);
    services.addEventHandler({
      onAdd: (s) => queue.add(objectKey(s)),
      onUpdate: (_old, s) => queue.add(objectKey(s)),
      onDelete: (s) => queue.add(objectKey(deletedObject(s))),
    });
    pods.addEventHandler({
      onAdd: (p) => enqueueFor(p),
      // Only a change the Endpoints can show wakes the services concerned.
      onUpdate: (old, p) => servicesToSyncOnPodChange(services.indexer.byNamespace(p.metadata.namespace ?? ''), old, p).forEach(afterBatch),
      onDelete: (p) => enqueueFor(deletedObject(p)),
    });
    endpoints.addEventHandler({ onDelete: (e) => queue.add(objectKey(deletedObject(e))) });

    const sync = async (key: string): Promise<void> => {
      const { namespace, name } = splitKey(key);
      const svc = services.indexer.getByKey(key);
      if (!svc) {
        try {
          await endpointsClient.namespace(namespace).delete(name);
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
        return;
      }
      if (svc.spec?.type === 'ExternalName' || !serviceSelector(svc)) return;
      const subsets = serviceSubsets(svc, selectedPods(svc, pods.indexer.byNamespace(namespace)));
      const current = endpoints.indexer.getByKey(key);
      const { [headlessLabel]: _headless, ...currentLabels } = current?.metadata.labels ?? {};
      const addressCount = subsets.reduce((n, s) => n + (s.addresses ?? []).length + (s.notReadyAddresses ?? []).length, 0);
      const capacityNoted = current?.metadata.annotations?.[overCapacity] !== undefined;
      if (current && subsetsKey(current.subsets) === subsetsKey(subsets) && sameStringMap(currentLabels, svc.metadata.labels) &&
        addressCount <= MAX_ENDPOINT_ADDRESSES && !capacityNoted) return;

      const annotations = { ...(current?.metadata.annotations ?? {}) };
      if (truncateSubsets(subsets)) annotations[overCapacity] = 'truncated';
      else delete annotations[overCapacity];
      const labels = { ...(svc.metadata.labels ?? {}) };
      if (!svc.spec?.clusterIP || svc.spec.clusterIP === 'None') labels[headlessLabel] = '';
      const metadata = { ...(current?.metadata ?? { name, namespace }), labels, annotations };
      const ready = subsets.reduce((n, s) => n + (s.addresses ?? []).length, 0);
      logger.v(4).info('Update endpoints', { service: key, readyEndpoints: ready, notreadyEndpoints: addressCount - ready });
      try {
        if (current) await endpointsClient.namespace(namespace).update({ apiVersion: 'v1', kind: 'Endpoints', metadata, subsets });
        else await endpointsClient.namespace(namespace).create({ apiVersion: 'v1', kind: 'Endpoints', metadata, subsets });
      } catch (e) {
        // A namespace being deleted takes no new objects; the service goes with it.
        if (!current && isForbidden(e) && hasStatusCause(e, 'NamespaceTerminating')) return;
        const [reason, message] = current
          ? ['FailedToUpdateEndpoint', `Failed to update endpoint ${key}: ${e instanceof Error ? e.message : String(e)}`]
          : ['FailedToCreateEndpoint', `Failed to create endpoint for service ${key}: ${e instanceof Error ? e.message : String(e)}`];
        void recorder.event({ apiVersion: 'v1', kind: 'Endpoints', namespace, name, uid: current?.metadata.uid ?? '' }, 'Warning', reason, message);
        throw e;
      }
    };

    if (!(await services.waitForSync(60_000)) || !(await pods.waitForSync(60_000)) || !(await endpoints.waitForSync(60_000))) {
      logger.warn('Endpoint controller caches have not synced; syncing anyway');
    }
    // Endpoints whose service went while the controller was away; leader-election records have none.
    for (const e of endpoints.indexer.list()) {
      if (e.metadata.annotations?.[leaderAnnotation] === undefined) queue.add(objectKey(e));
    }
    logger.info('Starting endpoint controller');
    await runWorkers(this.name, queue, ctx.concurrency('endpoint'), signal, sync, logger, { maxRetries });
  }
}

/** The controller with its flags. */
export const newEndpointController = (opts: EndpointOptions): ControllerFactory => () => new EndpointController(opts);

/** The controller with upstream's default flags. */
export const endpointController: ControllerFactory = newEndpointController({ batchPeriodMs: 0 });
