// The finalizer controller (upstream's CRDFinalizer): a deleted definition keeps its cleanup
// finalizer until its objects are gone. It reports the deletion in the Terminating condition
// (InstanceDeletionInProgress), deletes the objects namespace by namespace straight through the
// storage version's store, waits (up to a minute) until none remain, then drops the finalizer,
// which deletes the definition. A definition never established had no objects (NeverEstablished).
import type { CustomResourceDefinition, CustomResourceDefinitionCondition } from '../../../api/apiextensions/v1/custom-resource-definition.js';
import type { ApiDomain } from '../../../api/domain.js';
import type { Logger } from '../../log/logger.js';
import type { ObjectCache } from '../../registry/generic/object-cache.js';
import type { Store } from '../../registry/generic/store.js';
import { cleanupFinalizer, isConditionTrue, setCondition } from '../conditions.js';
import { changeDefinition } from './definition-writes.js';
import { KeyQueue } from './key-queue.js';

type Condition = Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>;

/** Where the finalizer finds a definition's objects. */
export interface DefinitionObjects {
  /** The store of the definition's storage version, while it is served. */
  storageStore(definition: string): Store | undefined;
  /** Catches up with etcd (a definition this server has not registered yet). */
  catchUp(): Promise<void>;
}

const pollMs = 5_000;
const waitMs = 60_000;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class FinalizerController {
  private readonly queue: KeyQueue;
  private readonly finalizer: string;

  constructor(
    private readonly cache: ObjectCache,
    private readonly store: Store,
    private readonly objects: DefinitionObjects,
    domain: ApiDomain,
    private readonly logger: Logger,
  ) {
    this.finalizer = cleanupFinalizer(domain);
    this.queue = new KeyQueue((name) => this.sync(name), (name, err) => logger.warn('CRD finalizer could not clean up a CustomResourceDefinition', { name, err: message(err) }));
  }

  start(): void {
    this.cache.subscribe((type, obj) => {
      if (type !== 'DELETED') this.queue.add(obj.metadata.name ?? '');
    });
  }

  stop(): void {
    this.queue.stop();
  }

  private pending(crd: CustomResourceDefinition | undefined): boolean {
    return !!crd?.metadata?.deletionTimestamp && (crd.metadata.finalizers ?? []).includes(this.finalizer);
  }

  private async sync(name: string): Promise<void> {
    if (!this.pending(this.cache.get('', name) as unknown as CustomResourceDefinition | undefined)) return;
    const inProgress: Condition = { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' };
    const crd = await this.setTerminating(name, inProgress);
    if (!crd) return;
    let done: Condition;
    if (isConditionTrue(crd, 'Established')) {
      const result = await this.deleteInstances(crd);
      if (result.error) {
        await this.setTerminating(name, result.condition);
        throw result.error;
      }
      done = result.condition;
    } else {
      done = { type: 'Terminating', status: 'False', reason: 'NeverEstablished', message: 'resource was never established' };
    }
    await this.setTerminating(name, done);
    await changeDefinition(this.store, name, (current) => {
      if (!this.pending(current)) return undefined;
      current.metadata!.finalizers = current.metadata!.finalizers!.filter((f) => f !== this.finalizer);
      return current;
    }, '');
    this.logger.v(2).info('deleted the objects of a CustomResourceDefinition', { name });
  }

  private async setTerminating(name: string, condition: Condition): Promise<CustomResourceDefinition | undefined> {
    return changeDefinition(this.store, name, (crd) => {
      if (!this.pending(crd)) return undefined;
      setCondition(crd, condition);
      return crd;
    });
  }

  /** Deletes every object of the definition and waits until none remain; the Terminating condition says how it went. */
  private async deleteInstances(crd: CustomResourceDefinition): Promise<{ condition: Condition; error?: Error }> {
    const name = crd.metadata?.name ?? '';
    const failed = (msg: string, reason = 'InstanceDeletionFailed'): { condition: Condition; error: Error } =>
      ({ condition: { type: 'Terminating', status: 'True', reason, message: msg }, error: new Error(msg) });
    let store = this.objects.storageStore(name);
    if (!store) {
      await this.objects.catchUp();
      store = this.objects.storageStore(name);
    }
    const plural = `${crd.status?.acceptedNames?.plural ?? ''}.${crd.spec.group}`;
    if (!store) return failed(`could not list instances: unable to find a custom resource client for ${plural}`);
    const s = store;
    let namespaces: Set<string>;
    try {
      namespaces = new Set((await s.list('', {})).items.map((o) => o.metadata.namespace ?? ''));
    } catch (e) {
      return failed(`could not list instances: ${message(e)}`);
    }
    const errors: string[] = [];
    for (const ns of namespaces) {
      try {
        await s.deleteCollection(ns, {});
      } catch (e) {
        errors.push(message(e));
      }
    }
    if (errors.length > 0) return failed(`could not issue all deletes: ${errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`}`);
    const deadline = Date.now() + waitMs;
    for (;;) {
      try {
        const left = (await s.list('', {})).items.length;
        if (left === 0) break;
        this.logger.v(2).info('Waiting for items to be removed', { resource: plural, count: left });
      } catch (e) {
        return failed(`could not confirm zero CustomResources remaining: ${message(e)}`, 'InstanceDeletionCheck');
      }
      if (Date.now() + pollMs > deadline) return failed('could not confirm zero CustomResources remaining: context deadline exceeded', 'InstanceDeletionCheck');
      await new Promise((r) => setTimeout(r, pollMs));
    }
    return { condition: { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' } };
  }
}
