// What deleting a released volume with the Delete reclaim policy comes to, as upstream's PV
// controller decides it with the volume plugins kube-controller-manager carries: a volume made by
// an external provisioner (provisioned-by naming one outside the platform's own prefix) is left to
// that provisioner; hostPath's deleter takes only paths matching /tmp/.+; the other in-tree
// plugins the manager has (nfs, fc, iscsi, rbd) delete nothing, and other sources have no plugin.
// We run none of the plugins' code: a hostPath volume under /tmp/ is deleted as an API object only
// (the directory is on a node, which the controller manager is not).
import type { VolumeObject } from './volume-matching.js';

export type DeleteDecision =
  | { kind: 'external' }
  | { kind: 'delete' }
  | { kind: 'failed'; message: string };

/** Sources whose in-tree plugin the controller manager has, but which cannot delete. */
const undeletable = ['nfs', 'fc', 'iscsi', 'rbd'] as const;

/**
 * The decision for `pv`; `provisionedBy` is the annotation naming its provisioner, `inTreePrefix`
 * the prefix of in-tree plugin names (`kubernetes.io/` upstream).
 */
export function deleteDecision(pv: VolumeObject, provisionedBy: string, inTreePrefix: string): DeleteDecision {
  const provisioner = pv.metadata.annotations?.[provisionedBy];
  // No in-tree provisioner plugin exists any more: any provisioner not named as one is external.
  if (provisioner && !provisioner.startsWith(inTreePrefix)) return { kind: 'external' };
  const name = pv.metadata.name ?? '';
  const failed = (why: string): DeleteDecision => ({ kind: 'failed', message: `error getting deleter volume plugin for volume ${JSON.stringify(name)}: ${why}` });
  if (provisioner) return { kind: 'failed', message: `no volume plugin matched name: ${provisioner}` };
  const spec = pv.spec ?? {};
  if (spec.hostPath) {
    // Go's regexp.MatchString: the pattern may match anywhere in the path.
    return /\/tmp\/.+/.test(spec.hostPath.path)
      ? { kind: 'delete' }
      : { kind: 'failed', message: `host_path deleter only supports /tmp/.+ but received provided ${spec.hostPath.path}` };
  }
  if (undeletable.some((s) => spec[s] !== undefined)) return failed('no deletable volume plugin matched');
  return failed('no volume plugin matched');
}
