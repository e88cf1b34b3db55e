// The options of each verb, as client-go's metav1.ListOptions, CreateOptions, PatchOptions and
// DeleteOptions, and how they go on the query.

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  limit?: number;
  continue?: string;
  timeoutSeconds?: number;
}

export interface WatchOptions extends ListOptions {
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
}

export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: 'Ignore' | 'Warn' | 'Strict';
}

export interface PatchOptions extends WriteOptions {
  /** Apply only: take fields other managers own. */
  force?: boolean;
}

/** json: RFC 6902; merge: RFC 7386; strategic: strategic merge patch; apply: server-side apply. */
export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const patchContentTypes: Record<PatchType, string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

type QueryValue = string | number | boolean | undefined;

/** `?a=b&…` of the options that are set, or ''. */
export function query(params: Record<string, QueryValue>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function listQuery(o: ListOptions): Record<string, QueryValue> {
  return {
    labelSelector: o.labelSelector,
    fieldSelector: o.fieldSelector,
    resourceVersion: o.resourceVersion,
    resourceVersionMatch: o.resourceVersionMatch,
    limit: o.limit,
    continue: o.continue,
    timeoutSeconds: o.timeoutSeconds,
  };
}

export function writeQuery(o: PatchOptions): Record<string, QueryValue> {
  return { dryRun: o.dryRun ? 'All' : undefined, fieldManager: o.fieldManager, fieldValidation: o.fieldValidation, force: o.force };
}

/** The DeleteOptions body, sent as JSON whatever format the client reads answers in. */
export function deleteBody(o: DeleteOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (o.gracePeriodSeconds !== undefined) out.gracePeriodSeconds = o.gracePeriodSeconds;
  if (o.propagationPolicy) out.propagationPolicy = o.propagationPolicy;
  if (o.preconditions) out.preconditions = o.preconditions;
  if (o.dryRun) out.dryRun = ['All'];
  return out;
}
