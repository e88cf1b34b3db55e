// The Node authorizer (upstream's plugin/pkg/auth/authorizer/node as of 1.30): requests of node
// agents (user `system:node:<name>` in group `system:nodes`) and nobody else's. Secrets, config
// maps, claims and volumes a node may read only when the graph connects them to a pod bound to
// it; service account tokens it may ask only for its pods' accounts; leases and CSINodes only its
// own. Everything else a node does is judged by the static rules every node shares (the
// system:node role's rules), with the NodeRestriction admission plug-in narrowing the writes
// (own Node, own pods' status, mirror pods) to the node's own objects. It never denies: what it
// does not allow falls to the next authorizer (RBAC), with a reason a 403 quotes.
import type { PolicyRule } from '../../../api/rbac/v1/policy-rule.js';
import type { Logger } from '../../log/logger.js';
import { goQuote } from '../../util/go-quote.js';
import { NodeLeaseNamespace, nodeIdentity } from '../../runtime/node-identity.js';
import type { UserInfo } from '../../runtime/user.js';
import type { Attributes } from '../attributes.js';
import { allow, noOpinion, type Authorizer, type Decision, type RuleResolver, type RulesResult } from '../authorizer.js';
import { rulesAllow } from '../rbac/rules.js';
import type { Graph, VertexType } from './graph.js';

export interface NodeAuthorizerOptions {
  graph: Graph;
  /** What every node may do where the graph does not decide (upstream's NodeRules). */
  rules: readonly PolicyRule[];
  /** coordination.<domain>, the group of Leases. */
  coordinationGroup: string;
  /** storage.<domain>, the group of CSINodes and VolumeAttachments. */
  storageGroup: string;
  /** Where refusals are logged at V(2), as upstream's "NODE DENY" lines. */
  logger?: Logger;
}

const readVerbs = new Set(['get', 'list', 'watch']);
const ownObjectVerbs = new Set(['get', 'create', 'update', 'patch', 'delete']);

export class NodeAuthorizer implements Authorizer, RuleResolver {
  constructor(private readonly o: NodeAuthorizerOptions) {}

  async authorize(a: Attributes): Promise<Decision> {
    const [nodeName, isNode] = nodeIdentity(a.user);
    if (!isNode) return noOpinion();
    if (!nodeName) return this.refuse('', a, `unknown node for user ${goQuote(a.user?.name ?? '')}`);
    if (a.isResourceRequest) {
      switch (`${a.apiGroup}/${a.resource}`) {
        case '/secrets':
          return this.readNamespacedObject(nodeName, 'secret', a);
        case '/configmaps':
          return this.readNamespacedObject(nodeName, 'configmap', a);
        case '/persistentvolumeclaims':
          return a.subresource === 'status' ? this.statusUpdate(nodeName, 'pvc', a) : this.get(nodeName, 'pvc', a);
        case '/persistentvolumes':
          return this.get(nodeName, 'pv', a);
        case '/serviceaccounts':
          return this.createToken(nodeName, a);
        case `${this.o.coordinationGroup}/leases`:
          return this.lease(nodeName, a);
        case `${this.o.storageGroup}/csinodes`:
          return this.csiNode(nodeName, a);
        case `${this.o.storageGroup}/volumeattachments`:
          // We serve no VolumeAttachments, so no graph edge ever leads a node to one.
          return this.get(nodeName, 'volumeattachment', a);
      }
    }
    return rulesAllow({ ...a, user: a.user! }, this.o.rules) ? allow() : noOpinion();
  }

  /** A node's permissions depend on the graph, so they cannot be listed (upstream says so as an error). */
  async rulesFor(user: UserInfo): Promise<RulesResult> {
    if (!nodeIdentity(user)[1]) return { resourceRules: [], nonResourceRules: [], incomplete: false };
    return { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' };
  }

  private refuse(nodeName: string, a: Attributes, reason: string): Decision {
    this.o.logger?.v(2).info('NODE DENY', { node: nodeName, user: a.user?.name, verb: a.verb, group: a.apiGroup, resource: a.resource, subresource: a.subresource, namespace: a.namespace, name: a.name, reason });
    return noOpinion(reason);
  }

  /** get, list or watch of one named object in a namespace (a kubelet watches single secrets by field selector). */
  private readNamespacedObject(nodeName: string, type: VertexType, a: Attributes): Decision {
    if (!readVerbs.has(a.verb)) return this.refuse(nodeName, a, 'can only read resources of this type');
    if (a.subresource) return this.refuse(nodeName, a, 'cannot read subresource');
    if (!a.namespace) return this.refuse(nodeName, a, 'can only read namespaced object of this type');
    return this.related(nodeName, type, a);
  }

  private get(nodeName: string, type: VertexType, a: Attributes): Decision {
    if (a.verb !== 'get') return this.refuse(nodeName, a, 'can only get individual resources of this type');
    if (a.subresource) return this.refuse(nodeName, a, 'cannot get subresource');
    return this.related(nodeName, type, a);
  }

  private statusUpdate(nodeName: string, type: VertexType, a: Attributes): Decision {
    if (a.verb !== 'update' && a.verb !== 'patch') return this.refuse(nodeName, a, 'can only get/update/patch this type');
    return this.related(nodeName, type, a);
  }

  /** Tokens of the service accounts of the node's pods; NodeRestriction checks the token is bound to such a pod. */
  private createToken(nodeName: string, a: Attributes): Decision {
    if (a.verb !== 'create' || !a.name) return this.refuse(nodeName, a, 'can only create tokens for individual service accounts');
    if (a.subresource !== 'token') return this.refuse(nodeName, a, 'can only create token subresource of serviceaccount');
    return this.related(nodeName, 'serviceAccount', a);
  }

  /** The node's own Lease, in the node-lease namespace; a create names no object here, NodeRestriction checks its body. */
  private lease(nodeName: string, a: Attributes): Decision {
    if (!ownObjectVerbs.has(a.verb)) return this.refuse(nodeName, a, 'can only get, create, update, patch, or delete a node lease');
    if (a.namespace !== NodeLeaseNamespace) return this.refuse(nodeName, a, `can only access leases in the ${goQuote(NodeLeaseNamespace)} system namespace`);
    if (a.verb !== 'create' && a.name !== nodeName) return this.refuse(nodeName, a, 'can only access node lease with the same name as the requesting node');
    return allow();
  }

  /** The node's own CSINode, as the node's Lease. */
  private csiNode(nodeName: string, a: Attributes): Decision {
    if (!ownObjectVerbs.has(a.verb)) return this.refuse(nodeName, a, 'can only get, create, update, patch, or delete a CSINode');
    if (a.subresource) return this.refuse(nodeName, a, 'cannot authorize CSINode subresources');
    if (a.verb !== 'create' && a.name !== nodeName) return this.refuse(nodeName, a, 'can only access CSINode with the same name as the requesting node');
    return allow();
  }

  private related(nodeName: string, type: VertexType, a: Attributes): Decision {
    if (!a.name) return this.refuse(nodeName, a, 'No Object name found');
    const path = this.o.graph.hasPathFrom(nodeName, type, a.namespace, a.name);
    if (path.found) return allow();
    this.o.logger?.v(2).info('NODE DENY', { err: path.why });
    return noOpinion(`no relationship found between node '${nodeName}' and this object`);
  }
}
