// The endpointslice controller (upstream's EndpointSlice controller, `endpointslice`): every Service
// with a selector (and not ExternalName) has EndpointSlices, per address family and set of ports,
// holding the pods it selects with their readiness (ready, serving, terminating), node, zone,
// host name and target, packed at most --max-endpoints-per-slice to a slice (reconciler.ts). The
// slices are named `<service>-<random>`, labelled with the service's labels, its name and
// managed-by `endpointslice-controller.<domain>`, and owned by the service, so the garbage
// collector takes them with it. Pod changes are batched for --endpointslice-updates-batch-period.
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Service } from '../../../api/core/v1/service.js';
import {
  BucketRateLimiter, EventRecorder, ItemExponentialFailureRateLimiter, MaxOfRateLimiter, RateLimitingQueue, deletedObject, objectKey, splitKey,
  type KubeObject,
} from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { RetryLater, runWorkers } from '../queue-workers.js';
import { selectedPods, serviceSelector, servicesSelecting, servicesToSyncOnPodChange } from '../service-pods.js';
import { managedBy, notDeleting, type SliceObject } from './endpoint-set.js';
import { planSlices } from './reconciler.js';
import { sliceEventHandler } from './slice-events.js';
import { applySlicePlan } from './slice-writer.js';
import { sliceNames } from './slice-names.js';
import { EndpointSliceTracker } from './slice-tracker.js';
import { TriggerTimeTracker } from './trigger-time.js';

type ServiceObject = Service & KubeObject;
type PodObject = Pod & KubeObject;
type NodeObject = Node & KubeObject;

export interface EndpointSliceOptions {
  /** --max-endpoints-per-slice (upstream's default 100). */
  maxEndpointsPerSlice: number;
  /** --endpointslice-updates-batch-period: how long pod changes wait to be synced together. */
  batchPeriodMs: number;
}

/** Upstream's maxRetries: a service whose sync keeps failing is dropped until its next event (1 s doubling to 1000 s). */
const maxRetries = 15;

/** Upstream's endpointSliceChangeMinSyncDelay: a slice changed by someone else is looked at after this at the soonest. */
const sliceChangeMinDelayMs = 1000;

class EndpointSliceController implements Controller {
  readonly name = 'endpointslice';

  constructor(private readonly opts: EndpointSliceOptions) {}

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal, domain } = ctx;
    const names = sliceNames(domain);
    // Upstream backs off from 1s (not 5ms) up to 1000s: a sync may rewrite many slices.
    const queue = new RateLimitingQueue<string>(new MaxOfRateLimiter(new ItemExponentialFailureRateLimiter(1000, 1_000_000), new BucketRateLimiter(10, 100)));
    const services = informers.forResource<ServiceObject>('', 'v1', 'services');
    const pods = informers.forResource<PodObject>('', 'v1', 'pods');
    const nodes = informers.forResource<NodeObject>('', 'v1', 'nodes');
    const slices = informers.forResource<SliceObject>(names.group, 'v1', 'endpointslices');
    const slicesClient = client.resource<SliceObject>(names.group, 'v1', 'endpointslices');
    const recorder = new EventRecorder(client, 'endpoint-slice-controller', logger);
    const tracker = new EndpointSliceTracker(names.serviceName);
    const triggerTimes = new TriggerTimeTracker();
    const zoneLabel = domain.key('zone', 'topology');
    const mine = (s: SliceObject) => managedBy(s, names.managedBy, names.sliceController);

    services.addEventHandler({
      onAdd: (s) => queue.add(objectKey(s)),
      onUpdate: (_old, s) => queue.add(objectKey(s)),
      onDelete: (s) => queue.add(objectKey(deletedObject(s))),
    });

    const podServices = (p: PodObject) => servicesSelecting(services.indexer.byNamespace(p.metadata.namespace ?? ''), p);
    const afterBatch = (svc: ServiceObject) => queue.addAfter(objectKey(svc), this.opts.batchPeriodMs);
    pods.addEventHandler({
      onAdd: (p) => podServices(p).forEach(afterBatch),
      onUpdate: (old, p) => servicesToSyncOnPodChange(services.indexer.byNamespace(p.metadata.namespace ?? ''), old, p).forEach(afterBatch),
      onDelete: (o) => podServices(deletedObject(o)).forEach(afterBatch),
    });

    /** The service a slice names in its service-name label, looked at after the slice changes settle. */
    const queueServiceOf = (s: SliceObject) => {
      const service = s.metadata.labels?.[names.serviceName];
      if (!service) return;
      queue.addAfter(`${s.metadata.namespace ?? ''}/${service}`, Math.max(sliceChangeMinDelayMs, this.opts.batchPeriodMs));
    };
    slices.addEventHandler(sliceEventHandler(names.serviceName, mine, tracker, queueServiceOf));

    const sync = async (key: string): Promise<void> => {
      const { namespace, name } = splitKey(key);
      const svc = services.indexer.getByKey(key);
      if (!svc) {
        // The slices go with the service through their owner reference.
        triggerTimes.deleteService(namespace, name);
        tracker.deleteService(namespace, name);
        return;
      }
      if (svc.spec?.type === 'ExternalName' || !serviceSelector(svc)) return;
      const existing = notDeleting(slices.indexer.byNamespace(namespace).filter((s) => mine(s) && s.metadata.labels?.[names.serviceName] === name));
      if (tracker.staleSlices(namespace, name, existing)) throw new RetryLater('EndpointSlice informer cache is out of date');
      const selected = selectedPods(svc, pods.indexer.byNamespace(namespace));
      const triggerTime = triggerTimes.compute(svc, selected);
      const plan = planSlices({
        service: svc, pods: selected, existing, node: (n) => nodes.indexer.get('', n),
        maxEndpointsPerSlice: this.opts.maxEndpointsPerSlice, names, zoneLabel,
      });
      const errors = [...plan.errors];
      for (const e of plan.errors) logger.info('skipping Pod for Service, Node not found', { service: key, err: e });
      try {
        await applySlicePlan(plan, { client: slicesClient, tracker, triggerTimeKey: names.triggerTime, triggerTime, createAllowed: !svc.metadata.deletionTimestamp, owner: `Service ${key}` });
      } catch (e) {
        errors.push(e instanceof Error ? e.message : String(e));
      }
      if (errors.length === 0) return;
      const message = errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`;
      void recorder.event({ apiVersion: 'v1', kind: 'Service', namespace, name, uid: svc.metadata.uid ?? '' }, 'Warning', 'FailedToUpdateEndpointSlices',
        `Error updating Endpoint Slices for Service ${key}: ${message}`);
      throw new Error(message);
    };

    const synced = await Promise.all([services, pods, nodes, slices].map((i) => i.waitForSync(60_000)));
    if (!synced.every(Boolean)) logger.warn('EndpointSlice controller caches have not synced; syncing anyway');
    if (signal.aborted) return;
    const workers = ctx.concurrency('service-endpoint');
    logger.info('Starting controller', { controller: 'endpointslice-controller', workers });
    await runWorkers(this.name, queue, workers, signal, sync, logger, { maxRetries });
  }
}

export const endpointSliceController = (opts: EndpointSliceOptions): ControllerFactory => () => new EndpointSliceController(opts);
