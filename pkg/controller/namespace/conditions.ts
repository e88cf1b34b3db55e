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

/** Collects one pass's problems, then merges them into the namespace's conditions. */
export class ConditionUpdater {
  private readonly problems = new Map<ConditionType, { reason: string; message: string }>();
  private readonly deleteErrors: string[] = [];

  discoveryFailed(failures: Map<string, string>): void {
    const detail = [...failures].sort(([a], [b]) => a.localeCompare(b)).map(([gv, err]) => `${gv}: ${err}`).join(', ');
    this.problems.set('NamespaceDeletionDiscoveryFailure', { reason: 'DiscoveryFailed', message: `Discovery failed for some groups, ${failures.size} failing: ${detail}` });
  }

  groupVersionParsingFailed(err: string): void {
    this.problems.set('NamespaceDeletionGroupVersionParsingFailure', { reason: 'GroupVersionParsingFailed', message: `Failed to parse some group versions: ${err}` });
  }

  deleteContentFailed(err: string): void {
    this.deleteErrors.push(err);
    this.problems.set('NamespaceDeletionContentFailure', {
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${this.deleteErrors.length} remaining: ${this.deleteErrors.length === 1 ? this.deleteErrors[0] : `[${this.deleteErrors.join(', ')}]`}`,
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
   * The namespace's conditions after this pass: the five deletion conditions replaced (their
   * transition time kept while their status holds), any other condition kept; `changed` says
   * whether anything but a time differs.
   */
  merge(current: readonly NamespaceCondition[], now = new Date()): { conditions: NamespaceCondition[]; changed: boolean } {
    const own = new Set<string>(conditionTypes);
    const out = current.filter((c) => !own.has(c.type));
    let changed = false;
    for (const type of conditionTypes) {
      const p = this.problems.get(type);
      const want: NamespaceCondition = p
        ? { type, status: 'True', reason: p.reason, message: p.message }
        : { type, status: 'False', reason: okReasons[type], message: okMessages[type] };
      const old = current.find((c) => c.type === type);
      const sameStatus = old?.status === want.status;
      if (!old || !sameStatus || old.reason !== want.reason || old.message !== want.message) changed = true;
      out.push({ ...want, lastTransitionTime: sameStatus && old?.lastTransitionTime ? old.lastTransitionTime : rfc3339(now) });
    }
    return { conditions: out, changed };
  }
}
