// The endpointslicemirroring controller (upstream's EndpointSliceMirroring controller,
// `endpointslicemirroring`): the Endpoints a user writes for a Service without a selector are
// mirrored into EndpointSlices (reconciler.ts), so consumers that read only slices see them too.
// Nothing is mirrored for an Endpoints labelled skip-mirror "true", a leader-election record, or
// one whose Service is missing or has a selector (the endpointslice controller serves those); the
// slices it made are deleted then. Limits: --mirroring-max-endpoints-per-subset addresses per
// subset, with Warning events for what was skipped.
import type { Service } from '../../../api/core/v1/service.js';
import {
  BucketRateLimiter, EventRecorder, ItemExponentialFailureRateLimiter, MaxOfRateLimiter, RateLimitingQueue, deletedObject, isNotFound, objectKey, splitKey,
  type KubeObject,
} from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { managedBy, notDeleting, type SliceObject } from '../endpointslice/endpoint-set.js';
import { sliceNames } from '../endpointslice/slice-names.js';
import { sliceEventHandler } from '../endpointslice/slice-events.js';
import { EndpointSliceTracker } from '../endpointslice/slice-tracker.js';
import { applySlicePlan } from '../endpointslice/slice-writer.js';
import { RetryLater, runWorkers } from '../queue-workers.js';
import { serviceSelector } from '../service-pods.js';
import { planMirror, type EndpointsObject } from './reconciler.js';

type ServiceObject = Service & KubeObject;

export interface MirroringOptions {
  /** --mirroring-concurrent-service-endpoint-syncs. */
  workers: number;
  /** --mirroring-max-endpoints-per-subset (upstream's default 1000). */
  maxEndpointsPerSubset: number;
  /** --mirroring-endpointslice-updates-batch-period: how long slice changes wait to be synced together. */
  batchPeriodMs: number;
}

/** Upstream's maxRetries: an Endpoints whose mirroring keeps failing is dropped until its next event (1 s doubling to 100 s). */
const maxRetries = 15;

class EndpointSliceMirroringController implements Controller {
  readonly name = 'endpointslicemirroring';

  constructor(private readonly opts: MirroringOptions) {}

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal, domain } = ctx;
    const names = sliceNames(domain);
    // Upstream backs off from 1s up to 100s.
    const queue = new RateLimitingQueue<string>(new MaxOfRateLimiter(new ItemExponentialFailureRateLimiter(1000, 100_000), new BucketRateLimiter(10, 100)));
    const endpoints = informers.forResource<EndpointsObject>('', 'v1', 'endpoints');
    const services = informers.forResource<ServiceObject>('', 'v1', 'services');
    const slices = informers.forResource<SliceObject>(names.group, 'v1', 'endpointslices');
    const slicesClient = client.resource<SliceObject>(names.group, 'v1', 'endpointslices');
    const recorder = new EventRecorder(client, 'endpoint-slice-mirroring-controller', logger);
    const tracker = new EndpointSliceTracker(names.serviceName);
    const droppedAnnotations = new Set([names.triggerTime, 'kubectl.kubernetes.io/last-applied-configuration', domain.key('last-applied-configuration', 'kubectl')]);
    const mine = (s: SliceObject) => managedBy(s, names.managedBy, names.mirroringController);
    const shouldMirror = (e: EndpointsObject) => e.metadata.labels?.[names.skipMirror] !== 'true' && e.metadata.annotations?.[names.leader] === undefined;
    const withoutSelector = (s: ServiceObject) => serviceSelector(s) === undefined;

    services.addEventHandler({
      onAdd: (s) => { if (withoutSelector(s)) queue.add(objectKey(s)); },
      onUpdate: (old, s) => { if (withoutSelector(old) !== withoutSelector(s)) queue.add(objectKey(s)); },
      onDelete: (o) => {
        const s = deletedObject(o);
        if (withoutSelector(s)) queue.add(objectKey(s));
      },
    });
    endpoints.addEventHandler({
      onAdd: (e) => { if (shouldMirror(e)) queue.add(objectKey(e)); },
      onUpdate: (old, e) => { if (shouldMirror(old) || shouldMirror(e)) queue.add(objectKey(e)); },
      onDelete: (o) => {
        const e = deletedObject(o);
        if (shouldMirror(e)) queue.add(objectKey(e));
      },
    });
    const queueEndpointsOf = (s: SliceObject) => {
      const name = s.metadata.labels?.[names.serviceName];
      if (name) queue.addAfter(`${s.metadata.namespace ?? ''}/${name}`, this.opts.batchPeriodMs);
    };
    slices.addEventHandler(sliceEventHandler(names.serviceName, mine, tracker, queueEndpointsOf));

    const mirrored = (namespace: string, name: string) =>
      slices.indexer.byNamespace(namespace).filter((s) => mine(s) && s.metadata.labels?.[names.serviceName] === name);

    /** Deletes every slice mirrored for the Endpoints (upstream's deleteMirroredSlices). */
    const deleteMirrored = async (namespace: string, name: string, why: string): Promise<void> => {
      tracker.deleteService(namespace, name);
      const found = mirrored(namespace, name);
      if (found.length === 0) return;
      logger.v(4).info(why, { endpoints: `${namespace}/${name}` });
      const errs: string[] = [];
      for (const s of found) {
        try {
          await slicesClient.namespace(namespace).delete(s.metadata.name ?? '');
        } catch (e) {
          if (!isNotFound(e)) errs.push(e instanceof Error ? e.message : String(e));
        }
      }
      if (errs.length > 0) throw new Error(`Error(s) deleting ${errs.length}/${found.length} EndpointSlices for ${namespace}/${name} Endpoints, including: ${errs[0]}`);
    };

    const sync = async (key: string): Promise<void> => {
      const { namespace, name } = splitKey(key);
      const ep = endpoints.indexer.getByKey(key);
      if (!ep) return deleteMirrored(namespace, name, 'Endpoints not found, cleaning up any mirrored EndpointSlices');
      if (!shouldMirror(ep)) return deleteMirrored(namespace, name, 'Endpoints should not be mirrored, cleaning up any mirrored EndpointSlices');
      const svc = services.indexer.getByKey(key);
      if (!svc) return deleteMirrored(namespace, name, 'Service not found, cleaning up any mirrored EndpointSlices');
      if (!withoutSelector(svc)) return deleteMirrored(namespace, name, 'Service now has selector, cleaning up any mirrored EndpointSlices');
      const existing = notDeleting(mirrored(namespace, name));
      if (tracker.staleSlices(namespace, name, existing)) throw new RetryLater('EndpointSlice informer cache is out of date');

      const plan = planMirror({ endpoints: ep, existing, maxEndpointsPerSubset: this.opts.maxEndpointsPerSubset, names, droppedAnnotations });
      const about = { apiVersion: 'v1', kind: 'Endpoints', namespace, name, uid: ep.metadata.uid ?? '' };
      if (plan.invalidAddresses > 0) {
        logger.warn('Addresses in Endpoints are not valid IPs and will not be mirrored to an EndpointSlice', { endpoints: key, count: plan.invalidAddresses });
        void recorder.event(about, 'Warning', 'InvalidIPAddress', `Skipped ${plan.invalidAddresses} invalid IP addresses when mirroring to EndpointSlices`);
      }
      if (plan.skippedAddresses > plan.invalidAddresses) {
        logger.warn(`${plan.skippedAddresses} addresses in ${key} Endpoints were skipped due to exceeding MaxEndpointsPerSubset`);
        void recorder.event(about, 'Warning', 'TooManyAddressesToMirror',
          `A max of ${this.opts.maxEndpointsPerSubset} addresses can be mirrored to EndpointSlices per Endpoints subset. ${plan.skippedAddresses} addresses were skipped`);
      }
      await applySlicePlan(plan, { client: slicesClient, tracker, createAllowed: !ep.metadata.deletionTimestamp, owner: `Endpoints ${key}` });
    };

    const synced = await Promise.all([endpoints, services, slices].map((i) => i.waitForSync(60_000)));
    if (!synced.every(Boolean)) logger.warn('EndpointSliceMirroring controller caches have not synced; syncing anyway');
    if (signal.aborted) return;
    logger.info('Starting controller', { controller: 'endpointslice-mirroring-controller', workers: this.opts.workers });
    await runWorkers(this.name, queue, this.opts.workers, signal, sync, logger, { maxRetries });
  }
}

export const endpointSliceMirroringController = (opts: MirroringOptions): ControllerFactory => () => new EndpointSliceMirroringController(opts);
