// The `namespaceObject` of policy expressions (upstream's CreateNamespaceObject): the request's
// namespace with its spec, status and the metadata fields upstream keeps, as CEL values of the
// kubernetes.Namespace type (timestamps as timestamps, numbers as ints).
import { jsonToCel } from '../../cel/values.js';
import type { AdmissionObject } from '../interfaces.js';

const keptMetadata = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp',
  'deletionGracePeriodSeconds', 'labels', 'annotations', 'finalizers'];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const timestamp = (v: unknown) => (typeof v === 'string' ? new Date(v) : v);

/** `ns` as namespaceObject, or null when the request has no namespace. */
export function namespaceObject(ns: AdmissionObject | undefined): unknown {
  if (!ns) return null;
  const meta = isRecord(ns.metadata) ? ns.metadata : {};
  const metadata: Record<string, unknown> = {};
  for (const k of keptMetadata) if (meta[k] !== undefined && meta[k] !== null) metadata[k] = jsonToCel(meta[k]);
  for (const k of ['creationTimestamp', 'deletionTimestamp']) if (metadata[k] !== undefined) metadata[k] = timestamp(metadata[k]);
  const status = isRecord(ns.status) ? jsonToCel(ns.status) as Record<string, unknown> : {};
  if (Array.isArray(status.conditions)) {
    status.conditions = status.conditions.map((c) => (isRecord(c) ? { ...c, lastTransitionTime: timestamp(c.lastTransitionTime) } : c));
  }
  return { metadata, spec: isRecord(ns.spec) ? jsonToCel(ns.spec) : {}, status };
}
