// The pod (or pod template) a request's object carries, for the resources PodSecurity looks at:
// pods themselves, and the workload kinds whose template becomes pods (upstream's
// DefaultPodSpecExtractor).
import type { PodSpec } from '../../../api/core/v1/pod-template.js';
import { isPlainObject } from '../../runtime/schema-node.js';
import type { AdmissionObject } from '../interfaces.js';
import type { PodMetadata } from './check.js';

export interface ExtractedPod {
  meta: PodMetadata;
  spec: PodSpec;
}

/** Where each workload kind keeps its pod template, by `<group>/<resource>`. */
const templatePaths: Record<string, readonly string[]> = {
  '/podtemplates': ['template'],
  '/replicationcontrollers': ['spec', 'template'],
  'apps/replicasets': ['spec', 'template'],
  'apps/deployments': ['spec', 'template'],
  'apps/statefulsets': ['spec', 'template'],
  'apps/daemonsets': ['spec', 'template'],
  'batch/jobs': ['spec', 'template'],
  'batch/cronjobs': ['spec', 'jobTemplate', 'spec', 'template'],
};

/** Whether objects of `<group>/<resource>` carry a pod template. */
export const hasPodTemplate = (group: string, resource: string): boolean => Object.hasOwn(templatePaths, `${group}/${resource}`);


/** A pod's own metadata and spec. */
export function podOf(pod: AdmissionObject): ExtractedPod {
  return { meta: (isPlainObject(pod['metadata']) ? pod['metadata'] : {}) as PodMetadata, spec: (isPlainObject(pod['spec']) ? pod['spec'] : {}) as PodSpec };
}

/** The template of a workload object, or undefined when it has none (a controller's template is optional). */
export function templateOf(group: string, resource: string, obj: AdmissionObject): ExtractedPod | undefined {
  let at: unknown = obj;
  for (const step of templatePaths[`${group}/${resource}`] ?? []) at = isPlainObject(at) ? at[step] : undefined;
  return isPlainObject(at) ? podOf(at) : undefined;
}
