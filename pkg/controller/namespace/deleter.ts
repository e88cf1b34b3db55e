// Empties a Terminating namespace (upstream's namespacedResourcesDeleter): every namespaced
// resource the server serves, found through discovery, is deleted (collection delete when served,
// else one by one), what remains is counted (and by finalizer), the namespace's conditions say so,
// and once nothing remains the controller's finalizer is removed through `namespaces/<n>/finalize`.
import type { ApiDomain } from '../../../api/domain.js';
import type { Client } from '../../client/client.js';
import type { DiscoveredResource } from '../../client/discovery.js';
import { isConflict, isNotFound } from '../../client/errors.js';
import type { KubeObject } from '../../client/resource-client.js';
import type { Logger } from '../../log/logger.js';
import { ConditionUpdater, type NamespaceCondition, type RemainingContent } from './conditions.js';

export interface Namespace extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: NamespaceCondition[] };
}

/** Objects are left and the namespace must be looked at again after `estimateSeconds`. */
export class ResourcesRemainingError extends Error {
  constructor(readonly estimateSeconds: number) {
    super(`some content remains in the namespace, estimate ${estimateSeconds} seconds before it is removed`);
  }
}

/** Upstream's finalizerEstimateSeconds: how long to expect content held by finalizers to take. */
const finalizerEstimateSeconds = 15;
/** How long to expect content without finalizers (graceful deletion) to take. */
const gracefulEstimateSeconds = 2;

interface Discovered {
  resources: DiscoveredResource[];
  failures: Map<string, string>;
}

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class NamespacedResourcesDeleter {
  constructor(private readonly client: Client, private readonly domain: ApiDomain, private readonly logger: Logger) {}

  private get namespaces() {
    return this.client.resource<Namespace>('', 'v1', 'namespaces');
  }

  /**
   * One pass over namespace `name`: nothing when it is gone, not terminating or already finalized
   * by us; else deletes its content and finalizes it. Throws ResourcesRemainingError while content
   * remains, another error when something failed.
   */
  async delete(name: string): Promise<void> {
    let ns: Namespace;
    try {
      ns = await this.namespaces.get(name);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    if (!ns.metadata.deletionTimestamp) return;
    if (!(ns.spec?.finalizers ?? []).includes(this.domain.namespaceFinalizer)) return;
    ns = await this.ensureTerminating(ns);
    const estimate = await this.deleteAllContent(ns);
    if (estimate > 0) throw new ResourcesRemainingError(estimate);
    await this.finalize(name, ns);
  }

  private async ensureTerminating(ns: Namespace): Promise<Namespace> {
    if (ns.status?.phase === 'Terminating') return ns;
    return this.namespaces.updateStatus({ ...ns, status: { ...(ns.status ?? {}), phase: 'Terminating' } });
  }

  /** Every served namespaced resource (preferred version) that can be listed and deleted; failing groups are reported, not fatal. */
  private async discover(): Promise<Discovered> {
    const failures = new Map<string, string>();
    const groups = await this.client.discovery.serverGroups();
    const lists = await Promise.all(groups.map(async (g) => {
      try {
        return await this.client.discovery.resourcesFor(g.name, g.preferredVersion);
      } catch (e) {
        failures.set(g.name ? `${g.name}/${g.preferredVersion}` : g.preferredVersion, errText(e));
        return [];
      }
    }));
    const resources = lists.flat().filter((r) => r.namespaced && !r.name.includes('/') && r.verbs.includes('list')
      && (r.verbs.includes('deletecollection') || r.verbs.includes('delete')));
    return { resources, failures };
  }

  /** Deletes everything in the namespace, reports on it in the conditions, and answers the estimate of seconds until it is gone (0: empty). */
  private async deleteAllContent(ns: Namespace): Promise<number> {
    const name = ns.metadata.name!;
    const updater = new ConditionUpdater();
    const errors: string[] = [];
    let discovered: Discovered = { resources: [], failures: new Map() };
    try {
      discovered = await this.discover();
    } catch (e) {
      discovered.failures.set('', errText(e));
    }
    if (discovered.failures.size > 0) {
      updater.discoveryFailed(discovered.failures);
      errors.push(`discovery failed for ${discovered.failures.size} groups`);
    }
    const remaining: RemainingContent = { byResource: new Map(), byFinalizer: new Map() };
    let estimate = 0;
    // Resources served under several groups (events in core and events.<domain>) share storage;
    // deleting through each is harmless and counts them as upstream does.
    await Promise.all(discovered.resources.map(async (r) => {
      try {
        const left = await this.deleteAllOf(r, name);
        if (left.items.length === 0) return;
        remaining.byResource.set(`${r.name}.${r.group}`, left.items.length);
        let withFinalizers = false;
        for (const item of left.items) {
          for (const f of item.metadata.finalizers ?? []) {
            withFinalizers = true;
            remaining.byFinalizer.set(f, (remaining.byFinalizer.get(f) ?? 0) + 1);
          }
        }
        estimate = Math.max(estimate, withFinalizers ? finalizerEstimateSeconds : gracefulEstimateSeconds);
      } catch (e) {
        updater.deleteContentFailed(errText(e));
        errors.push(`${r.name}.${r.group}: ${errText(e)}`);
      }
    }));
    updater.contentTotals(remaining);
    const { conditions, changed } = updater.merge(ns.status?.conditions ?? []);
    if (changed) {
      try {
        await this.namespaces.updateStatus({ ...ns, status: { ...(ns.status ?? {}), conditions } });
      } catch (e) {
        // A lost race only delays the report to the next pass; it must not hold up the deletion.
        if (!isConflict(e) && !isNotFound(e)) this.logger.warn('cannot update the deletion conditions of a namespace', { namespace: name, err: errText(e) });
      }
    }
    if (remaining.byResource.size > 0) {
      this.logger.v(2).info('content remains in a terminating namespace', { namespace: name, remaining: Object.fromEntries(remaining.byResource), estimateSeconds: estimate });
    }
    if (errors.length > 0) throw new Error(`namespace ${name}: ${errors.join('; ')}`);
    return estimate;
  }

  /** Deletes every object of resource `r` in namespace `ns` and answers what is still there. */
  private async deleteAllOf(r: DiscoveredResource, ns: string): Promise<{ items: KubeObject[] }> {
    const rc = this.client.resource(r.group, r.version, r.name).namespace(ns);
    const before = await rc.list();
    if (before.items.length === 0) return { items: [] };
    if (r.verbs.includes('deletecollection')) {
      await rc.deleteCollection({}, { propagationPolicy: 'Background' });
    } else {
      for (const item of before.items) {
        try {
          await rc.delete(item.metadata.name!, { propagationPolicy: 'Background' });
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
      }
    }
    this.logger.v(2).info('deleted the content of a terminating namespace', { namespace: ns, resource: `${r.name}.${r.group}`, count: before.items.length });
    return { items: (await rc.list()).items };
  }

  /** Removes our finalizer from spec.finalizers (retrying on conflict with a fresh copy); the server then deletes the namespace. */
  private async finalize(name: string, ns: Namespace): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const finalizers = (ns.spec?.finalizers ?? []).filter((f) => f !== this.domain.namespaceFinalizer);
      try {
        await this.namespaces.updateSubresource(name, 'finalize', { ...ns, spec: { ...(ns.spec ?? {}), finalizers } } as never);
        this.logger.info('namespace emptied and finalized', { namespace: name });
        return;
      } catch (e) {
        if (isNotFound(e)) return;
        if (!isConflict(e) || attempt >= 4) throw e;
        try {
          ns = await this.namespaces.get(name);
        } catch (g) {
          if (isNotFound(g)) return;
          throw g;
        }
        if (!(ns.spec?.finalizers ?? []).includes(this.domain.namespaceFinalizer)) return;
      }
    }
  }
}
