// A Node's conditions as controllers read them (upstream's controller/util/node GetNodeCondition
// and util/node IsNodeReady).
import type { Node, NodeCondition } from '../../api/core/v1/node.js';

export type { NodeCondition };

/** The condition of `type`, if the node reports it. */
export function nodeCondition(node: Pick<Node, 'status'>, type: string): NodeCondition | undefined {
  return (node.status?.conditions ?? []).find((c) => c.type === type);
}

/** Whether the node reports Ready True. */
export function isNodeReady(node: Pick<Node, 'status'>): boolean {
  return nodeCondition(node, 'Ready')?.status === 'True';
}
