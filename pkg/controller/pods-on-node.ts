// The pods bound to a node, from the shared pod informer (upstream's AddPodNodeNameIndexer and
// the getPodsAssignedToNode of its node controllers): one `spec.nodeName` index, added by whichever
// controller asks first.
import type { SharedIndexInformer } from '../client/index.js';
import type { PodObject } from './pod-conditions.js';

export const nodeNameIndex = 'spec.nodeName';

/** A lookup of the pods bound to a node; adds the index to the informer when it has none. */
export function podsOnNode(pods: SharedIndexInformer<PodObject>): (nodeName: string) => PodObject[] {
  if (!pods.indexer.hasIndexer(nodeNameIndex)) pods.addIndexer(nodeNameIndex, (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []));
  return (nodeName) => pods.indexer.byIndex(nodeNameIndex, nodeName);
}
