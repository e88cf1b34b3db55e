// A DaemonSet's history and how its pods name their template (upstream's daemon update.go and
// daemon/util): each template is a ControllerRevision `<set>-<hash>` recording it as a replacing
// patch, the hash being the template's pod-template hash (salted with status.collisionCount); a
// pod carries that hash in controller-revision-hash and the set's template generation (the
// deprecated.daemonset.template.generation annotation the server keeps) in pod-template-generation,
// and is up to date when either matches.
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import type { ApiDomain } from '../../../api/domain.js';
import { newControllerRef } from '../controller-ref.js';
import { computePodTemplateHash } from '../deployment/pod-template-hash.js';
import type { PodObject } from '../pod-conditions.js';
import { revisionData, revisionHashLabel, sameData, type Revision } from '../statefulset/revisions.js';
import { withDaemonTolerations, type DaemonSetObject } from './placement.js';

export { revisionHashLabel };
export type { Revision };

/** Upstream's extensions.DaemonSetTemplateGenerationKey. */
export const templateGenerationLabel = 'pod-template-generation';
/** Upstream's apps.DeprecatedTemplateGeneration, which the API server maintains. */
export const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';

export const dsApiVersion = 'apps/v1';
export const dsKind = 'DaemonSet';

/** The template generation the server recorded; undefined when absent or not an integer. */
export function templateGeneration(ds: DaemonSetObject): number | undefined {
  const v = ds.metadata.annotations?.[templateGenerationAnnotation];
  return v !== undefined && /^[+-]?\d+$/.test(v) ? Number(v) : undefined;
}

/** Whether the pod was made from the current template: its hash, or its template generation, matches. */
export function isPodUpdated(pod: PodObject, hash: string, generation: number | undefined): boolean {
  const labels = pod.metadata.labels ?? {};
  return (hash !== '' && labels[revisionHashLabel] === hash) ||
    (generation !== undefined && labels[templateGenerationLabel] === String(generation));
}

/** The template new daemon pods are made from (upstream's CreatePodTemplate): its labels name the revision, and it has the daemon tolerations. */
export function daemonPodTemplate(ds: DaemonSetObject, hash: string, domain: ApiDomain): PodTemplateSpec {
  const template = structuredClone(ds.spec?.template ?? {}) as PodTemplateSpec;
  const generation = templateGeneration(ds);
  template.metadata = {
    ...(template.metadata ?? {}),
    labels: {
      ...(template.metadata?.labels ?? {}),
      ...(generation !== undefined ? { [templateGenerationLabel]: String(generation) } : {}),
      ...(hash ? { [revisionHashLabel]: hash } : {}),
    },
  };
  if (template.spec) template.spec.tolerations = withDaemonTolerations(template.spec, domain);
  return template;
}

/** Whether the revision records the set's current template (upstream's Match). */
export function matchesTemplate(ds: DaemonSetObject, rev: Revision): boolean {
  return sameData(rev, revisionData(ds));
}

/** The revision recording the set's current template (upstream's snapshot, before it is created). */
export function newDaemonRevision(ds: DaemonSetObject, revision: number): Revision {
  const hash = computePodTemplateHash(ds.spec?.template, ds.status?.collisionCount ?? undefined);
  return {
    apiVersion: dsApiVersion,
    kind: 'ControllerRevision',
    metadata: {
      name: `${ds.metadata.name}-${hash}`,
      namespace: ds.metadata.namespace,
      labels: { ...(ds.spec?.template?.metadata?.labels ?? {}), [revisionHashLabel]: hash },
      ...(ds.metadata.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
      ownerReferences: [newControllerRef(ds, dsApiVersion, dsKind)],
    },
    data: revisionData(ds),
    revision,
  };
}
