// The deletion conditions of a Terminating namespace, with upstream's types, reasons and messages
// (pkg/controller/namespace/deletion/status_condition_utils.go): every pass of the deleter reports
// all five, a problem as status True with its reason, everything else as False with an OK reason.

export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export const conditionTypes = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;
export type ConditionType = (typeof conditionTypes)[number];

const okReasons: Record<ConditionType, string> = {
  NamespaceDeletionDiscoveryFailure: 'ResourcesDiscovered',
  NamespaceDeletionGroupVersionParsingFailure: 'ParsedGroupVersions',
  NamespaceDeletionContentFailure: 'ContentDeleted',
  NamespaceContentRemaining: 'ContentRemoved',
  NamespaceFinalizersRemaining: 'ContentHasNoFinalizers',
};

const okMessages: Record<ConditionType, string> = {
  NamespaceDeletionDiscoveryFailure: 'All resources successfully discovered',
  NamespaceDeletionGroupVersionParsingFailure: 'All legacy kube types successfully parsed',
  NamespaceDeletionContentFailure: 'All content successfully deleted, may be waiting on finalization',
  NamespaceContentRemaining: 'All content successfully removed',
  NamespaceFinalizersRemaining: 'All content-preserving finalizers finished',
};

/** What one pass found left in the namespace: objects per resource (`resource.group`) and objects per finalizer. */
export interface RemainingContent {
  byResource: Map<string, number>;
  byFinalizer: Map<string, number>;
}

const rfc3339 = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Go's GroupVersionResource.String(), as upstream's messages print a resource: `apps/v1, Resource=deployments`. */
export function gvrString(group: string, version: string, resource: string): string {
  return `${group ? `${group}/` : '/'}${version}, Resource=${resource}`;
}

/** What client-go's ErrGroupDiscoveryFailed says of the groups (by group/version) that could not be discovered. */
export function groupDiscoveryError(failures: ReadonlyMap<string, string>): string {
  return `unable to retrieve the complete list of server APIs: ${[...failures].map(([gv, err]) => `${gv}: ${err}`).sort().join(', ')}`;
}

/** Collects one pass's problems, then merges them into the namespace's conditions. */
export class ConditionUpdater {
  private readonly problems = new Map<ConditionType, { reason: string; message: string }>();
  private readonly deleteErrors: string[] = [];

  /** Some groups could not be discovered (`failures` by group/version). */
  discoveryFailed(failures: ReadonlyMap<string, string>): void {
    this.problems.set('NamespaceDeletionDiscoveryFailure', {
      reason: 'DiscoveryFailed',
      message: `Discovery failed for some groups, ${failures.size} failing: ${groupDiscoveryError(failures)}`,
    });
  }

  /** Discovery failed as a whole: upstream reports the error as it is. */
  discoveryError(err: string): void {
    this.problems.set('NamespaceDeletionDiscoveryFailure', { reason: 'DiscoveryFailed', message: err });
  }

  groupVersionParsingFailed(err: string): void {
    this.problems.set('NamespaceDeletionGroupVersionParsingFailure', { reason: 'GroupVersionParsingFailed', message: err });
  }

  /** One resource's content could not be deleted (or remains unexpectedly). */
  deleteContentFailed(err: string): void {
    this.deleteErrors.push(err);
    const msgs = [...this.deleteErrors].sort();
    this.problems.set('NamespaceDeletionContentFailure', {
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`,
    });
  }

  contentTotals(remaining: RemainingContent): void {
    const resources = [...remaining.byResource].filter(([, n]) => n > 0).map(([gr, n]) => `${gr} has ${n} resource instances`).sort();
    if (resources.length > 0) this.problems.set('NamespaceContentRemaining', { reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${resources.join(', ')}` });
    const finalizers = [...remaining.byFinalizer].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`).sort();
    if (finalizers.length > 0) {
      this.problems.set('NamespaceFinalizersRemaining', { reason: 'SomeFinalizersRemain', message: `Some content in the namespace has finalizers remaining: ${finalizers.join(', ')}` });
    }
  }

  /**
   * The namespace's conditions after this pass, as upstream's updateConditions: each of the five
   * is added when missing, or changed in place when its status, reason or message differs (its
   * transition time moving only with its status); other conditions are kept. `changed` says
   * whether a write is due.
   */
  merge(current: readonly NamespaceCondition[], now = new Date()): { conditions: NamespaceCondition[]; changed: boolean } {
    const out = current.map((c) => ({ ...c }));
    let changed = false;
    for (const type of conditionTypes) {
      const p = this.problems.get(type);
      const want = p
        ? { status: 'True' as const, reason: p.reason, message: p.message }
        : { status: 'False' as const, reason: okReasons[type], message: okMessages[type] };
      const old = out.find((c) => c.type === type);
      if (!old) {
        out.push({ type, ...want, lastTransitionTime: rfc3339(now) });
        changed = true;
      } else if (old.status !== want.status || old.reason !== want.reason || old.message !== want.message) {
        if (old.status !== want.status) old.lastTransitionTime = rfc3339(now);
        Object.assign(old, want);
        changed = true;
      }
    }
    return { conditions: out, changed };
  }
}
