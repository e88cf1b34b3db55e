// ControllerRevisions of a StatefulSet (upstream's controller_history + stateful_set_utils): each
// records the pod template as a strategic-merge "replace" patch, is named `<set>-<hash>` where
// the hash is FNV-1 of that patch (probed with collisionCount when a name is already taken by
// different data), and carries an increasing revision number. Pods name their revision in the
// `controller-revision-hash` label, which is how the controller tells old pods from new.
import type { StatefulSet } from '../../../api/apps/v1/stateful-set.js';
import type { ControllerRevision } from '../../../api/apps/v1/controller-revision.js';
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import type { KubeObject } from '../../client/index.js';

/** Upstream's apps.ControllerRevisionHashLabelKey: not domain-qualified there either. */
export const revisionHashLabel = 'controller-revision-hash';

export type Revision = ControllerRevision & KubeObject;
export type Sts = StatefulSet & KubeObject;

/** JSON with object keys sorted, so equal data always serializes (and hashes) the same. */
export function canonicalJSON(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJSON).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonicalJSON(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Upstream's getPatch (of StatefulSets and DaemonSets alike): only the template is recorded, as a patch that replaces it wholesale. */
export function revisionData(set: { spec?: { template?: PodTemplateSpec } }): Record<string, unknown> {
  return { spec: { template: { ...(set.spec?.template ?? {}), $patch: 'replace' } } };
}

/** The template a revision recorded (upstream's ApplyRevision, for the only field we record). */
export function templateOf(rev: Revision): PodTemplateSpec | undefined {
  const data = rev.data as { spec?: { template?: PodTemplateSpec & { $patch?: string } } } | undefined;
  const t = data?.spec?.template;
  if (!t) return undefined;
  const { $patch: _, ...template } = t;
  return template;
}

/** FNV-1 (not 1a) over 32 bits, as Go's hash/fnv New32. */
function fnv1_32(bytes: Uint8Array, h = 0x811c9dc5): number {
  for (const b of bytes) h = (Math.imul(h, 0x01000193) ^ b) >>> 0;
  return h;
}

const safeAlphanums = 'bcdfghjklmnpqrstvwxz2456789';

/** Upstream's rand.SafeEncodeString: no vowels, so a hash never spells a word. */
function safeEncode(s: string): string {
  return Array.from(s, (c) => safeAlphanums[c.charCodeAt(0) % safeAlphanums.length]).join('');
}

/** Upstream's HashControllerRevision: the data, then the collision probe in base 32. */
export function hashRevision(data: unknown, collisionCount: number | undefined): string {
  const enc = new TextEncoder();
  let h = fnv1_32(enc.encode(canonicalJSON(data)));
  if (collisionCount !== undefined) h = fnv1_32(enc.encode(collisionCount.toString(32)), h);
  return safeEncode(String(h));
}

export function revisionName(setName: string, hash: string): string {
  return `${setName}-${hash}`;
}

export function sameData(a: Revision, b: unknown): boolean {
  return canonicalJSON(a.data) === canonicalJSON(b);
}

/** The revision a StatefulSet's current template would get (not yet named or numbered in the cluster). */
export function newRevision(set: Sts, revision: number, collisionCount: number | undefined): Revision {
  const data = revisionData(set);
  const hash = hashRevision(data, collisionCount);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revisionName(set.metadata.name ?? '', hash),
      namespace: set.metadata.namespace,
      labels: { ...(set.spec?.template?.metadata?.labels ?? {}), [revisionHashLabel]: hash },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: set.metadata.name ?? '', uid: set.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    data,
    revision,
  };
}
