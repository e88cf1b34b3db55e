// NamespaceLifecycle (upstream k8s.io/apiserver plugin/namespace/lifecycle, as of 1.30): the
// immortal namespaces cannot be deleted, and nothing namespaced is created in a namespace that
// does not exist or is being terminated. The namespace cache may lag behind a namespace created or
// deleted a moment ago, so a miss is re-read after a short wait and then read live, and a
// namespace deleted within the last 30 seconds is always read live.
import type { StatusError } from '../../runtime/errors.js';
import { isStatusError, newForbidden, newInternalError, newNotFound } from '../../runtime/errors.js';
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type AdmissionObject, type Attributes, type MutationInterface, type ObjectLister, type PluginDeps } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'NamespaceLifecycle';

/** The namespaces the server makes itself and never lets go (upstream: default, kube-system, kube-public). */
export const immortalNamespaces: readonly string[] = ['default', 'orch-system', 'orch-public'];

/** How long a namespace just deleted is read live rather than from the cache. */
export const forceLiveLookupTTLMillis = 30_000;
/** How long a create waits for the cache to see a namespace it does not know yet. */
export const missingNamespaceWaitMillis = 50;
/** Upstream's LRU keeps at most this many recently deleted namespaces. */
const forceLiveLookupCapacity = 100;

export interface NamespaceLifecycleOptions {
  immortal?: readonly string[];
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
  /** Waits `ms`; tests make it return at once. */
  sleep?: (ms: number) => Promise<void>;
}

const namespacesGR = { group: '', resource: 'namespaces' };

/** Recently deleted namespaces, each remembered until its expiry (upstream's LRUExpireCache). */
class ExpiringSet {
  private readonly entries = new Map<string, number>();
  constructor(private readonly capacity: number, private readonly now: () => number) {}
  add(key: string, ttl: number): void {
    this.entries.delete(key);
    this.entries.set(key, this.now() + ttl);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }
  has(key: string): boolean {
    const expiry = this.entries.get(key);
    if (expiry === undefined) return false;
    if (this.now() >= expiry) {
      this.entries.delete(key);
      return false;
    }
    return true;
  }
}

const phaseOf = (ns: AdmissionObject): string => {
  const status = ns['status'];
  if (typeof status !== 'object' || status === null) return '';
  const phase = (status as Record<string, unknown>)['phase'];
  return typeof phase === 'string' ? phase : '';
};

export class NamespaceLifecycle implements MutationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE', 'UPDATE', 'DELETE');
  private readonly immortal: ReadonlySet<string>;
  private readonly forceLiveLookup: ExpiringSet;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Access reviews are answered whether or not their namespace exists: a 404 would tell which namespaces do. */
  private readonly accessReviewResources: ReadonlySet<string>;

  constructor(private readonly namespaces: ObjectLister, deps: PluginDeps, opts: NamespaceLifecycleOptions = {}) {
    this.immortal = new Set(opts.immortal ?? immortalNamespaces);
    this.forceLiveLookup = new ExpiringSet(forceLiveLookupCapacity, opts.now ?? Date.now);
    this.sleep = opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.accessReviewResources = new Set([`${deps.domain.group('authorization')}/localsubjectaccessreviews`]);
  }

  async admit(attrs: Attributes): Promise<void> {
    const isNamespace = attrs.kind.group === '' && attrs.kind.kind === 'Namespace';
    if (attrs.operation === 'DELETE' && isNamespace && this.immortal.has(attrs.name)) {
      throw newForbidden({ group: attrs.resource.group, resource: attrs.resource.resource }, attrs.name, 'this namespace may not be deleted');
    }
    // Cluster-scoped objects other than namespaces have no namespace to check.
    if (!attrs.namespace && !isNamespace) return;
    if (isNamespace) {
      // Creates into a namespace being deleted must stop at once, before the cache shows it
      // Terminating. A dry run deletes nothing, so there is nothing to watch for.
      if (attrs.operation === 'DELETE' && !attrs.dryRun) this.forceLiveLookup.add(attrs.name, forceLiveLookupTTLMillis);
      return;
    }
    if (attrs.operation === 'DELETE') return;
    if (this.accessReviewResources.has(`${attrs.resource.group}/${attrs.resource.resource}`)) return;

    // 1.30 checks updates too: an update in a namespace that no longer exists is refused with
    // the namespace's NotFound (only a create is refused for a Terminating namespace).
    let ns = this.namespaces.get('', attrs.namespace);
    if (!ns && attrs.operation === 'CREATE') {
      // Give the cache a moment to see a namespace created just before this object.
      await this.sleep(missingNamespaceWaitMillis);
      ns = this.namespaces.get('', attrs.namespace);
    }
    const forceLive = ns !== undefined && this.forceLiveLookup.has(attrs.namespace) && phaseOf(ns) === 'Active';
    if (!ns || forceLive) {
      let live: AdmissionObject | undefined;
      try {
        live = await this.namespaces.fetch('', attrs.namespace);
      } catch (e) {
        throw internalError(e);
      }
      if (!live) throw newNotFound(namespacesGR, attrs.namespace);
      ns = live;
    }
    if (attrs.operation === 'CREATE' && phaseOf(ns) === 'Terminating') throw terminatingError(attrs);
  }
}

/** The refusal of a create in a Terminating namespace, worded as the registry's own check. */
export function terminatingError(attrs: Attributes): StatusError {
  const err = newAdmissionForbidden(attrs, `unable to create new content in namespace ${attrs.namespace} because it is being terminated`);
  const details = err.status.details ?? (err.status.details = {});
  details.causes = [...(details.causes ?? []), {
    reason: 'NamespaceTerminating', message: `namespace ${attrs.namespace} is being terminated`, field: 'metadata.namespace',
  }];
  return err;
}

function internalError(e: unknown): StatusError {
  if (isStatusError(e) && e.code === 404) return e;
  return newInternalError(e);
}

/** Makes the plug-in over the server's namespace cache; it takes no configuration. */
export function newNamespaceLifecycle(deps: PluginDeps, opts: NamespaceLifecycleOptions = {}): NamespaceLifecycle {
  const namespaces = deps.lister('', 'namespaces');
  if (!namespaces) throw new Error('missing namespaceLister');
  return new NamespaceLifecycle(namespaces, deps, opts);
}

export const namespaceLifecycleFactory: PluginFactory = (_configuration, deps) => newNamespaceLifecycle(deps);
