// Which requests come from a node agent (upstream's pkg/auth/nodeidentifier): the NodeRestriction
// admission plug-in and the Node authorizer both ask it, so both read a node's name the same way.
import type { UserInfo } from './user.js';

export const NodeUserNamePrefix = 'system:node:';
export const NodesGroup = 'system:nodes';
/** Upstream's kube-node-lease: where each node keeps its heartbeat Lease, named for the node. */
export const NodeLeaseNamespace = 'orch-node-lease';

/**
 * The node a user is, as upstream's default node identifier reads it: `[name, true]` for a user
 * named `system:node:<name>` in group `system:nodes`, else `['', false]`. A node identity with
 * nothing after the prefix is `['', true]`: a node, but not one anybody can name.
 */
export function nodeIdentity(user: UserInfo | undefined): [string, boolean] {
  if (!user || !user.name.startsWith(NodeUserNamePrefix)) return ['', false];
  if (!user.groups.includes(NodesGroup)) return ['', false];
  return [user.name.slice(NodeUserNamePrefix.length), true];
}
