// A webhook's namespaceSelector and objectSelector (upstream's namespace and object predicates).
// The namespace selector applies to namespaced objects and to Namespace objects; the object
// selector to the new or the old object, either matching; objects without metadata never match.
import type { LabelSelector } from '../../../api/meta/v1/types.js';
import { isEmptySelector, selectorMatches } from '../../runtime/label-selector-match.js';
import { newNotFound } from '../../runtime/errors.js';
import type { AdmissionObject, Attributes, ObjectLister } from '../interfaces.js';

function labelsOf(obj: AdmissionObject | undefined): Record<string, string> | undefined {
  const meta = obj?.['metadata'];
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  const labels = (meta as { labels?: unknown }).labels;
  return typeof labels === 'object' && labels !== null ? (labels as Record<string, string>) : {};
}

/**
 * The labels of the request's namespace: the request's own object when it creates or updates a
 * Namespace (the cache cannot have it yet), else the cached Namespace, read live when the cache
 * has not seen it. Throws 404 when the namespace does not exist, as upstream.
 */
async function namespaceLabels(attrs: Attributes, namespaces: ObjectLister | undefined): Promise<Record<string, string>> {
  if (attrs.resource.resource === 'namespaces' && attrs.subresource === '' && (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE')) {
    return labelsOf(attrs.object) ?? {};
  }
  const name = attrs.namespace;
  const ns = namespaces?.get('', name) ?? (await namespaces?.fetch('', name));
  if (!ns) throw newNotFound({ group: '', resource: 'namespaces' }, name);
  return labelsOf(ns) ?? {};
}

/** Whether the webhook's namespaceSelector lets the request through; throws 404 for a missing namespace. */
export async function matchNamespaceSelector(selector: LabelSelector | undefined, attrs: Attributes, namespaces: ObjectLister | undefined): Promise<boolean> {
  // Cluster-scoped objects other than namespaces are never exempted by a namespace selector.
  if (attrs.namespace === '' && attrs.resource.resource !== 'namespaces') return true;
  if (!selector || isEmptySelector(selector)) return true;
  return selectorMatches(selector, await namespaceLabels(attrs, namespaces));
}

/** Whether the webhook's objectSelector selects the request's object or its old object. */
export function matchObjectSelector(selector: LabelSelector | undefined, object: AdmissionObject | undefined, oldObject: AdmissionObject | undefined): boolean {
  if (!selector || isEmptySelector(selector)) return true;
  const matches = (o: AdmissionObject | undefined) => {
    const labels = labelsOf(o);
    return labels !== undefined && selectorMatches(selector, labels);
  };
  return matches(object) || matches(oldObject);
}
