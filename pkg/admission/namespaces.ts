// The namespace of a request as the plug-ins that read its annotations need it (PodNodeSelector,
// PodTolerationRestriction): from the cache, read live when the cache does not have it yet (a
// namespace created a moment ago), NotFound when it does not exist.
import { isStatusError, newInternalError, newNotFound } from '../runtime/errors.js';
import type { AdmissionObject, ObjectLister } from './interfaces.js';

const namespacesGR = { group: '', resource: 'namespaces' };

/** The namespace `name`; throws 404 when there is none, 500 when the live read fails. */
export async function namespaceOf(namespaces: ObjectLister, name: string): Promise<AdmissionObject> {
  const cached = namespaces.get('', name);
  if (cached) return cached;
  let live: AdmissionObject | undefined;
  try {
    live = await namespaces.fetch('', name);
  } catch (e) {
    throw isStatusError(e) && e.code === 404 ? e : newInternalError(e);
  }
  if (!live) throw newNotFound(namespacesGR, name);
  return live;
}

/** The annotations of a namespace object (empty when it has none). */
export function annotationsOf(ns: AdmissionObject): Record<string, string> {
  return (ns['metadata'] as { annotations?: Record<string, string> } | undefined)?.annotations ?? {};
}
