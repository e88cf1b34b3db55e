// Whether a pod's required node placement admits a node (component-helpers' nodeaffinity
// GetRequiredNodeAffinity(pod).Match(node)): every spec.nodeSelector label, and at least one term
// of the required node affinity, whose label expressions and metadata.name fields all hold. A term
// without any condition matches no node; a malformed requirement (a Gt value that is no integer)
// makes its term fail, as upstream ignores the parse error and reports no match.
import type { Affinity, NodeSelectorRequirement, NodeSelectorTerm } from '../../api/core/v1/affinity.js';

/** The node fields a placement reads: its name and labels. */
export interface PlacedNode {
  metadata: { name?: string; labels?: Record<string, string> };
}

/** What of a pod decides its placement. */
export interface PlacementSpec {
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
}

/** Upstream's metav1.ObjectNameField: the one node field matchFields may name. */
export const objectNameField = 'metadata.name';

const integer = /^[+-]?\d+$/;

function requirementMatches(r: NodeSelectorRequirement, fields: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(fields, r.key);
  const value = fields[r.key];
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return has && values.includes(value!);
    case 'NotIn':
      return !has || !values.includes(value!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || values.length !== 1 || !integer.test(values[0]!) || !integer.test(value!)) return false;
      const [have, want] = [BigInt(value!), BigInt(values[0]!)];
      return r.operator === 'Gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

/** Whether one term admits the node: every label expression and field requirement holds, and there is at least one. */
export function termMatches(term: NodeSelectorTerm, node: PlacedNode): boolean {
  const expressions = term.matchExpressions ?? [];
  const fieldReqs = term.matchFields ?? [];
  if (expressions.length === 0 && fieldReqs.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  const fields = { [objectNameField]: node.metadata.name ?? '' };
  // Only metadata.name may be selected on; any other field name fails its term.
  return expressions.every((r) => requirementMatches(r, labels)) &&
    fieldReqs.every((r) => r.key === objectNameField && requirementMatches(r, fields));
}

/** Whether the pod's nodeSelector and required node affinity both admit the node. */
export function requiredPlacementMatches(spec: PlacementSpec, node: PlacedNode): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return (required.nodeSelectorTerms ?? []).some((t) => termMatches(t, node));
}
