// Empties a Terminating namespace as upstream's namespacedResourcesDeleter does: every namespaced
// resource the server serves is deleted (collection delete when served, else one by one), what
// remains is counted (and by finalizer) into the namespace's conditions, an estimate of how long
// it will take is answered, and once nothing remains the controller's finalizer is removed through
// `namespaces/<n>/finalize`.
//
// Unlike upstream, a pass reads what a namespace holds from the controller manager's informer
// caches where it has them, and asks the API server only about resources that hold something to
// delete (or that no cache covers): a namespace stuck on a finalizer costs a few requests a pass,
// not two per namespaced resource. Before the finalizer goes, one pass asks the API server about
// every resource (and re-reads discovery), so a cache that lags never lets content outlive its
// namespace.
import type { ApiDomain } from '../../../api/domain.js';
import type { Client } from '../../client/client.js';
import type { DiscoveredResource } from '../../client/discovery.js';
import { isConflict, isMethodNotSupported, isNotFound } from '../../client/errors.js';
import type { KubeObject, ResourceClient } from '../../client/resource-client.js';
import type { Logger } from '../../log/logger.js';
import { ConditionUpdater, groupDiscoveryError, gvrString, type NamespaceCondition, type RemainingContent } from './conditions.js';

export interface Namespace extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: NamespaceCondition[] };
}

interface Pod extends KubeObject {
  spec?: { terminationGracePeriodSeconds?: number };
  status?: { phase?: string };
}

/** What the deleter may read instead of listing through the API server. */
export interface ContentCache {
  /** The objects of `r` in namespace `ns` from a synced cache; undefined when no cache covers `r`. */
  list(r: DiscoveredResource, ns: string): readonly KubeObject[] | undefined;
}

const noCache: ContentCache = { list: () => undefined };

/** Objects are left and the namespace must be looked at again after about `estimateSeconds`. */
export class ResourcesRemainingError extends Error {
  constructor(readonly estimateSeconds: number) {
    super(`some content remains in the namespace, estimate ${estimateSeconds} seconds before it is removed`);
  }
}

/** Upstream's finalizerEstimateSeconds: how long to expect content held by finalizers to take. */
const finalizerEstimateSeconds = 15;
/** Discovery read for one pass serves the next ones this long (upstream's resync of discovery-driven controllers). */
const discoveryMaxAgeMs = 30_000;

/** What one resource's deletion left. */
interface ResourceOutcome {
  /** Seconds until what remains should be gone (0: nothing remains, or nothing is expected to go). */
  estimate: number;
  remaining: readonly KubeObject[];
  /** Whether the answer came from a cache rather than the API server. */
  cached: boolean;
  /** Objects remain that nothing should keep (upstream's "unexpected items still remain"). */
  unexpected?: string;
}

interface Discovered {
  resources: DiscoveredResource[];
  /** Groups that could not be read, by group/version. */
  failures: Map<string, string>;
  /** Discovery failed as a whole. */
  error?: string;
}

/** One pass over a namespace's content. */
interface Pass {
  updater: ConditionUpdater;
  estimate: number;
  errors: string[];
  /** Some resource was judged from a cache. */
  cached: boolean;
  remaining: RemainingContent;
}

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));
const withFinalizers = (o: KubeObject) => (o.metadata.finalizers ?? []).length > 0;

export class NamespacedResourcesDeleter {
  private discovered: { at: number; resources: DiscoveredResource[] } | undefined;

  constructor(
    private readonly client: Client, private readonly domain: ApiDomain, private readonly logger: Logger,
    private readonly cache: ContentCache = noCache, private readonly now: () => number = Date.now,
  ) {}

  private get namespaces() {
    return this.client.resource<Namespace>('', 'v1', 'namespaces');
  }

  /**
   * One pass over namespace `name`: nothing when it is gone, not being deleted or no longer ours
   * to finalize; else deletes its content and finalizes it. Throws ResourcesRemainingError while
   * content remains, another error when something failed.
   */
  async delete(name: string): Promise<void> {
    // Other controllers may edit a namespace while it terminates: act on its latest state.
    let ns = await this.getNamespace(name);
    if (!ns?.metadata.deletionTimestamp) return;
    ns = await this.retryOnConflict(ns, (n) => this.ensureTerminating(n));
    if (!ns?.metadata.deletionTimestamp) return;
    if (!(ns.spec?.finalizers ?? []).includes(this.domain.namespaceFinalizer)) return;
    const estimate = await this.deleteAllContent(ns);
    if (estimate > 0) throw new ResourcesRemainingError(estimate);
    await this.retryOnConflict(ns, (n) => this.finalize(n));
  }

  private async getNamespace(name: string): Promise<Namespace | undefined> {
    try {
      return await this.namespaces.get(name);
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  /** Runs `write` on the namespace, again on a fresh copy after each conflict (upstream's retryOnConflictError); undefined once it is gone. */
  private async retryOnConflict(ns: Namespace, write: (n: Namespace) => Promise<Namespace>): Promise<Namespace | undefined> {
    for (let latest = ns; ;) {
      try {
        return await write(latest);
      } catch (e) {
        if (isNotFound(e)) return undefined;
        if (!isConflict(e)) throw e;
      }
      const prev = latest;
      const fresh = await this.getNamespace(prev.metadata.name!);
      if (!fresh) return undefined;
      if (fresh.metadata.uid !== prev.metadata.uid) throw new Error('namespace uid has changed across retries');
      latest = fresh;
    }
  }

  private async ensureTerminating(ns: Namespace): Promise<Namespace> {
    if (!ns.metadata.deletionTimestamp || ns.status?.phase === 'Terminating') return ns;
    return this.namespaces.updateStatus({ ...ns, status: { ...(ns.status ?? {}), phase: 'Terminating' } });
  }

  /** Removes our finalizer from spec.finalizers; the server deletes the namespace once none is left. */
  private async finalize(ns: Namespace): Promise<Namespace> {
    const finalizers = [...new Set((ns.spec?.finalizers ?? []).filter((f) => f !== this.domain.namespaceFinalizer))].sort();
    const done = await this.namespaces.updateSubresource(ns.metadata.name!, 'finalize', { ...ns, spec: { ...(ns.spec ?? {}), finalizers } } as never);
    this.logger.info('namespace emptied and finalized', { namespace: ns.metadata.name });
    return done as Namespace;
  }

  /**
   * Every served namespaced resource (preferred versions) that can be listed and deleted; groups
   * that fail are reported, not fatal. A complete answer serves later passes for a while; `fresh`
   * reads it again.
   */
  private async discover(fresh: boolean): Promise<Discovered> {
    if (!fresh && this.discovered && this.now() - this.discovered.at < discoveryMaxAgeMs) return { resources: this.discovered.resources, failures: new Map() };
    const failures = new Map<string, string>();
    let groups;
    try {
      groups = await this.client.discovery.serverGroups();
    } catch (e) {
      return { resources: [], failures, error: errText(e) };
    }
    const lists = await Promise.all(groups.map(async (g) => {
      try {
        return await this.client.discovery.resourcesFor(g.name, g.preferredVersion);
      } catch (e) {
        failures.set(g.name ? `${g.name}/${g.preferredVersion}` : g.preferredVersion, errText(e));
        return [];
      }
    }));
    const resources = lists.flat().filter((r) => r.namespaced && !r.name.includes('/') && r.verbs.includes('delete') && r.verbs.includes('list'));
    this.discovered = failures.size === 0 ? { at: this.now(), resources } : undefined;
    return { resources, failures };
  }

  /**
   * Deletes everything in the namespace, reports on it in the conditions, and answers the
   * estimate of seconds until it is gone (0: empty). Throws when something failed, after the
   * conditions say what.
   */
  private async deleteAllContent(ns: Namespace): Promise<number> {
    let pass = await this.pass(ns, false);
    // Empty as far as the caches tell: make sure of it before the namespace may go.
    if (pass.cached && pass.estimate === 0 && pass.errors.length === 0) pass = await this.pass(ns, true);
    const name = ns.metadata.name!;
    const { conditions, changed } = pass.updater.merge(ns.status?.conditions ?? []);
    if (changed) {
      try {
        await this.namespaces.updateStatus({ ...ns, status: { ...(ns.status ?? {}), conditions } });
      } catch (e) {
        // A lost race only delays the report to the next pass; it must not hold up the deletion.
        this.logger.warn('couldn\'t update status condition for namespace', { namespace: name, err: errText(e) });
      }
    }
    if (pass.remaining.byResource.size > 0) {
      this.logger.v(2).info('content remains in a terminating namespace', { namespace: name, remaining: Object.fromEntries(pass.remaining.byResource), estimateSeconds: pass.estimate });
    }
    if (pass.errors.length > 0) throw new Error(pass.errors.length === 1 ? pass.errors[0] : `[${pass.errors.join(', ')}]`);
    return pass.estimate;
  }

  /** One pass over every resource; `authoritative` asks the API server about each one and reads discovery afresh. */
  private async pass(ns: Namespace, authoritative: boolean): Promise<Pass> {
    const name = ns.metadata.name!;
    const deletedAt = Date.parse(ns.metadata.deletionTimestamp ?? '') || this.now();
    const updater = new ConditionUpdater();
    const errors: string[] = [];
    const discovered = await this.discover(authoritative);
    if (discovered.error !== undefined) {
      updater.discoveryError(discovered.error);
      errors.push(discovered.error);
    } else if (discovered.failures.size > 0) {
      updater.discoveryFailed(discovered.failures);
      errors.push(groupDiscoveryError(discovered.failures));
    }
    const remaining: RemainingContent = { byResource: new Map(), byFinalizer: new Map() };
    let estimate = 0;
    let cached = false;
    await Promise.all(discovered.resources.map(async (r) => {
      let outcome: ResourceOutcome;
      try {
        outcome = await this.deleteAllOf(r, name, deletedAt, authoritative);
      } catch (e) {
        updater.deleteContentFailed(errText(e));
        errors.push(errText(e));
        return;
      }
      cached ||= outcome.cached;
      if (outcome.unexpected) {
        updater.deleteContentFailed(outcome.unexpected);
        errors.push(outcome.unexpected);
      }
      estimate = Math.max(estimate, outcome.estimate);
      if (outcome.remaining.length === 0) return;
      remaining.byResource.set(`${r.name}.${r.group}`, outcome.remaining.length);
      for (const item of outcome.remaining) {
        for (const f of item.metadata.finalizers ?? []) remaining.byFinalizer.set(f, (remaining.byFinalizer.get(f) ?? 0) + 1);
      }
    }));
    updater.contentTotals(remaining);
    return { updater, estimate, errors, cached, remaining };
  }

  /**
   * Deletes every object of `r` in namespace `ns` and says what is left (upstream's
   * deleteAllContentForGroupVersionResource). A cache that shows nothing, or only objects already
   * being deleted, spares the API server; otherwise the objects are deleted and listed again.
   */
  private async deleteAllOf(r: DiscoveredResource, ns: string, deletedAt: number, authoritative: boolean): Promise<ResourceOutcome> {
    const rc = this.client.resource(r.group, r.version, r.name).namespace(ns);
    const fromCache = authoritative ? undefined : this.cache.list(r, ns);
    const before = fromCache ?? await listOrNothing(rc);
    if (before.length === 0) return { estimate: 0, remaining: [], cached: fromCache !== undefined };
    const podEstimate = r.group === '' && r.name === 'pods' ? this.podsEstimate(before as Pod[], deletedAt) : 0;
    let remaining = before;
    if (before.some((o) => !o.metadata.deletionTimestamp)) {
      await this.deleteCollection(r, rc, before);
      this.logger.v(2).info('deleted the content of a terminating namespace', { namespace: ns, resource: `${r.name}.${r.group}`, count: before.length });
      remaining = await listOrNothing(rc);
    }
    const cached = remaining === fromCache;
    if (remaining.length === 0) return { estimate: 0, remaining, cached };
    if (podEstimate > 0) return { estimate: podEstimate, remaining, cached };
    // Content waiting on its finalizers is normal: give them the time upstream does.
    if (remaining.some(withFinalizers)) return { estimate: finalizerEstimateSeconds, remaining, cached };
    // Nothing should hold these: the cache may only lag behind their removal; the server tells.
    if (cached) return this.deleteAllOf(r, ns, deletedAt, true);
    return { estimate: 0, remaining, cached, unexpected: `unexpected items still remain in namespace: ${ns} for gvr: ${gvrString(r.group, r.version, r.name)}` };
  }

  /** Collection delete when served, else one delete per object; background propagation, as upstream. */
  private async deleteCollection(r: DiscoveredResource, rc: ResourceClient<KubeObject>, items: readonly KubeObject[]): Promise<void> {
    if (r.verbs.includes('deletecollection')) {
      try {
        await rc.deleteCollection({}, { propagationPolicy: 'Background' });
        return;
      } catch (e) {
        if (!isNotFound(e) && !isMethodNotSupported(e)) throw e;
      }
    }
    for (const item of items) {
      try {
        await rc.delete(item.metadata.name!, { propagationPolicy: 'Background' });
      } catch (e) {
        if (!isNotFound(e) && !isMethodNotSupported(e)) throw e;
      }
    }
  }

  /**
   * Upstream's estimateGracefulTerminationForPods: the longest grace period of the pods not yet
   * terminal, or 0 once the namespace has been going longer than that.
   */
  private podsEstimate(pods: readonly Pod[], deletedAt: number): number {
    let estimate = 0;
    for (const p of pods) {
      if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
      const grace = p.spec?.terminationGracePeriodSeconds;
      if (grace !== undefined && grace > estimate) estimate = grace;
    }
    return this.now() - deletedAt >= estimate * 1000 ? 0 : estimate;
  }
}

/** The objects of a collection; none when the server does not list it (upstream's unsupported operation). */
async function listOrNothing(rc: ResourceClient<KubeObject>): Promise<KubeObject[]> {
  try {
    return (await rc.list()).items;
  } catch (e) {
    if (isNotFound(e) || isMethodNotSupported(e)) return [];
    throw e;
  }
}
