// The NodeRestriction plug-in (upstream plugin/pkg/admission/noderestriction, as of 1.30): requests
// from a node identity (user `system:node:<name>` in group `system:nodes`) may only touch that
// node's own objects: its Node (no taint changes, no restricted labels, no config source), mirror
// pods bound to it (owned by its Node, naming no account, secret, config map, trust bundle or
// claim), status, eviction and deletion of pods bound to it, status of claims, tokens bound to its
// pods, its Lease in the node-lease namespace and its CSINode. Other users are never affected.
// Upstream implements this as a mutating plug-in that changes nothing; so does this one.
import type { ApiDomain } from '../../../api/domain.js';
import { newNotFound, type StatusError } from '../../runtime/errors.js';
import { NodeLeaseNamespace, nodeIdentity } from '../../runtime/node-identity.js';
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type AdmissionObject, type Attributes, type MutationInterface, type ObjectLister, type PluginDeps } from '../interfaces.js';
import { isMirrorPod, mirrorPodAnnotation, podConfigMapNames, podSecretNames, type PodRefs } from '../podutil/references.js';
import type { PluginFactory } from '../registry.js';
import { modifiedLabels, NodeLabelPolicy } from './labels.js';
import { differingPaths, semanticEqual } from './semantic.js';

export const PluginName = 'NodeRestriction';
interface Meta {
  name?: string;
  uid?: string;
  labels?: Record<string, string>;
  resourceVersion?: string;
  managedFields?: unknown;
  ownerReferences?: { apiVersion?: string; kind?: string; name?: string; uid?: string; controller?: boolean; blockOwnerDeletion?: boolean }[];
}
interface Pod extends PodRefs {
  metadata?: PodRefs['metadata'] & Meta;
  spec?: PodRefs['spec'] & { nodeName?: string };
}
interface Node { metadata?: Meta; spec?: { configSource?: unknown; taints?: unknown[] } }

const isRecord = (v: unknown): v is AdmissionObject => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The decoded object is there and is a JSON object (upstream: of the expected type). */
const isObject = <T>(v: T | undefined): v is T => isRecord(v);
const typeName = (v: unknown) => (v === undefined ? '<nil>' : Array.isArray(v) ? 'array' : typeof v);

export class NodeRestrictionPlugin implements MutationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE', 'UPDATE', 'DELETE');
  private readonly labels: NodeLabelPolicy;
  private readonly mirrorKey: string;
  private readonly coordinationGroup: string;
  private readonly storageGroup: string;

  constructor(private readonly domain: ApiDomain, private readonly pods: ObjectLister, private readonly nodes: ObjectLister) {
    this.labels = new NodeLabelPolicy(domain);
    this.mirrorKey = mirrorPodAnnotation(domain);
    this.coordinationGroup = domain.group('coordination');
    this.storageGroup = domain.group('storage');
  }

  async admit(a: Attributes): Promise<void> {
    const [nodeName, isNode] = nodeIdentity(a.userInfo);
    if (!isNode) return;
    if (!nodeName) throw newAdmissionForbidden(a, `could not determine node from user ${JSON.stringify(a.userInfo.name)}`);
    const { group, resource } = a.resource;
    if (group === '') {
      switch (resource) {
        case 'pods':
          switch (a.subresource) {
            case '': return this.admitPod(nodeName, a);
            case 'status': return this.admitPodStatus(nodeName, a);
            case 'eviction': return this.admitPodEviction(nodeName, a);
            default: throw newAdmissionForbidden(a, `unexpected pod subresource ${JSON.stringify(a.subresource)}, only 'status' and 'eviction' are allowed`);
          }
        case 'nodes': return this.admitNode(nodeName, a);
        case 'persistentvolumeclaims':
          if (a.subresource === 'status') return this.admitPVCStatus(nodeName, a);
          throw newAdmissionForbidden(a, 'may only update PVC status');
        case 'serviceaccounts': return this.admitServiceAccount(nodeName, a);
        default: return;
      }
    }
    if (group === this.coordinationGroup && resource === 'leases') return this.admitLease(nodeName, a);
    if (group === this.storageGroup && resource === 'csinodes') return this.admitCSINode(nodeName, a);
  }

  /** The cached object, else a live read (the cache may lag); undefined when it does not exist. */
  private async lookup(lister: ObjectLister, namespace: string, name: string): Promise<AdmissionObject | undefined> {
    return lister.get(namespace, name) ?? await lister.fetch(namespace, name);
  }

  /** Upstream returns the lister's NotFound as is: `pod "<name>" not found` (singular resource). */
  private notFound(resource: 'pod' | 'node', name: string): StatusError {
    return newNotFound({ group: '', resource }, name);
  }

  private async admitPod(nodeName: string, a: Attributes): Promise<void> {
    switch (a.operation) {
      case 'CREATE': return this.admitPodCreate(nodeName, a);
      case 'DELETE': {
        const existing = await this.lookup(this.pods, a.namespace, a.name) as Pod | undefined;
        if (!existing) throw this.notFound('pod', a.name);
        if ((existing.spec?.nodeName ?? '') !== nodeName) {
          throw newAdmissionForbidden(a, `node ${JSON.stringify(nodeName)} can only delete pods with spec.nodeName set to itself`);
        }
        return;
      }
      default:
        throw newAdmissionForbidden(a, `unexpected operation ${JSON.stringify(a.operation)}, node ${JSON.stringify(nodeName)} can only create and delete mirror pods`);
    }
  }

  private async admitPodCreate(nodeName: string, a: Attributes): Promise<void> {
    const pod = a.object as Pod | undefined;
    if (!isObject(pod)) throw newAdmissionForbidden(a, `unexpected type ${typeName(pod)}`);
    const n = JSON.stringify(nodeName);
    if (!isMirrorPod(pod, this.domain)) {
      throw newAdmissionForbidden(a, `pod does not have ${JSON.stringify(this.mirrorKey)} annotation, node ${n} can only create mirror pods`);
    }
    if ((pod.spec?.nodeName ?? '') !== nodeName) throw newAdmissionForbidden(a, `node ${n} can only create pods with spec.nodeName set to itself`);
    const owners = pod.metadata?.ownerReferences ?? [];
    if (owners.length > 1) throw newAdmissionForbidden(a, `node ${n} can only create pods with a single owner reference set to itself`);
    if (owners.length === 0) throw newAdmissionForbidden(a, `node ${n} can only create pods with an owner reference set to itself`);
    const owner = owners[0]!;
    if (owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== nodeName) {
      throw newAdmissionForbidden(a, `node ${n} can only create pods with an owner reference set to itself`);
    }
    if (owner.controller !== true) throw newAdmissionForbidden(a, `node ${n} can only create pods with a controller owner reference set to itself`);
    if (owner.blockOwnerDeletion === true) throw newAdmissionForbidden(a, `node ${n} must not set blockOwnerDeletion on an owner reference`);
    const node = await this.lookup(this.nodes, '', nodeName) as Node | undefined;
    if (!node) throw this.notFound('node', nodeName);
    const nodeUID = node.metadata?.uid ?? '';
    if ((owner.uid ?? '') !== nodeUID) throw newAdmissionForbidden(a, `node ${nodeName} UID mismatch: expected ${owner.uid ?? ''} got ${nodeUID}`);

    if (pod.spec?.serviceAccountName) throw newAdmissionForbidden(a, `node ${n} can not create pods that reference a service account`);
    if (podSecretNames(pod).length > 0) throw newAdmissionForbidden(a, `node ${n} can not create pods that reference secrets`);
    if (podConfigMapNames(pod).length > 0) throw newAdmissionForbidden(a, `node ${n} can not create pods that reference configmaps`);
    for (const v of pod.spec?.volumes ?? []) {
      for (const s of v.projected?.sources ?? []) {
        if (s.clusterTrustBundle) throw newAdmissionForbidden(a, `node ${n} can not create pods that reference clustertrustbundles`);
      }
    }
    for (const v of pod.spec?.volumes ?? []) {
      if (v.persistentVolumeClaim) throw newAdmissionForbidden(a, `node ${n} can not create pods that reference persistentvolumeclaims`);
    }
  }

  private admitPodStatus(nodeName: string, a: Attributes): void {
    if (a.operation !== 'UPDATE') throw newAdmissionForbidden(a, `unexpected operation ${JSON.stringify(a.operation)}`);
    const oldPod = a.oldObject as Pod | undefined;
    if (!isObject(oldPod)) throw newAdmissionForbidden(a, `unexpected type ${typeName(oldPod)}`);
    if ((oldPod.spec?.nodeName ?? '') !== nodeName) {
      throw newAdmissionForbidden(a, `node ${JSON.stringify(nodeName)} can only update pod status for pods with spec.nodeName set to itself`);
    }
    const newPod = a.object as Pod | undefined;
    if (!isObject(newPod)) throw newAdmissionForbidden(a, `unexpected type ${typeName(newPod)}`);
    if (!semanticEqual(oldPod.metadata?.labels ?? {}, newPod.metadata?.labels ?? {})) {
      throw newAdmissionForbidden(a, `node ${JSON.stringify(nodeName)} cannot update labels through pod status`);
    }
  }

  private async admitPodEviction(nodeName: string, a: Attributes): Promise<void> {
    if (a.operation !== 'CREATE') throw newAdmissionForbidden(a, `unexpected operation ${a.operation}`);
    const eviction = a.object as { metadata?: { name?: string } } | undefined;
    if (!isObject(eviction)) throw newAdmissionForbidden(a, `unexpected type ${typeName(eviction)}`);
    // The pod named in the path wins over the one in the Eviction body.
    let podName = a.name;
    if (!podName) {
      podName = eviction.metadata?.name ?? '';
      if (!podName) throw newAdmissionForbidden(a, 'could not determine pod from request data');
    }
    const existing = await this.lookup(this.pods, a.namespace, podName) as Pod | undefined;
    if (!existing) throw this.notFound('pod', podName);
    if ((existing.spec?.nodeName ?? '') !== nodeName) {
      throw newAdmissionForbidden(a, `node ${nodeName} can only evict pods with spec.nodeName set to itself`);
    }
  }

  private admitPVCStatus(nodeName: string, a: Attributes): void {
    if (a.operation !== 'UPDATE') throw newAdmissionForbidden(a, `unexpected operation ${JSON.stringify(a.operation)}`);
    const oldPVC = a.oldObject;
    if (!isObject(oldPVC)) throw newAdmissionForbidden(a, `unexpected type ${typeName(oldPVC)}`);
    const newPVC = a.object;
    if (!isObject(newPVC)) throw newAdmissionForbidden(a, `unexpected type ${typeName(newPVC)}`);
    // A node may change status.capacity and status.conditions only; resourceVersion may be left
    // empty for an unconditional update and managedFields are not the node's doing.
    const strip = (o: AdmissionObject) => {
      const c = structuredClone(o) as { metadata?: Record<string, unknown>; status?: Record<string, unknown> };
      if (c.metadata) { delete c.metadata['resourceVersion']; delete c.metadata['managedFields']; }
      if (c.status) { delete c.status['capacity']; delete c.status['conditions']; }
      return c;
    };
    const o = strip(oldPVC);
    const n = strip(newPVC);
    if (!semanticEqual(o, n)) {
      throw newAdmissionForbidden(a, `node ${JSON.stringify(nodeName)} is not allowed to update fields other than status.quantity and status.conditions: ${differingPaths(o, n).join(', ')}`);
    }
  }

  private admitNode(nodeName: string, a: Attributes): void {
    const requested = a.name;
    if (requested !== nodeName) {
      throw newAdmissionForbidden(a, `node ${JSON.stringify(nodeName)} is not allowed to modify node ${JSON.stringify(requested)}`);
    }
    const n = JSON.stringify(nodeName);
    if (a.operation === 'CREATE') {
      const node = a.object as Node | undefined;
      if (!isObject(node)) throw newAdmissionForbidden(a, `unexpected type ${typeName(node)}`);
      if (node.spec?.configSource !== undefined && node.spec.configSource !== null) {
        throw newAdmissionForbidden(a, `node ${n} is not allowed to create pods with a non-nil configSource`);
      }
      const forbidden = this.labels.forbidden(modifiedLabels(node.metadata?.labels, undefined));
      if (forbidden.length > 0) throw newAdmissionForbidden(a, `node ${n} is not allowed to set the following labels: ${forbidden.join(', ')}`);
    }
    if (a.operation === 'UPDATE') {
      const node = a.object as Node | undefined;
      if (!isObject(node)) throw newAdmissionForbidden(a, `unexpected type ${typeName(node)}`);
      const old = a.oldObject as Node | undefined;
      if (!isObject(old)) throw newAdmissionForbidden(a, `unexpected type ${typeName(node)}`);
      const cs = node.spec?.configSource;
      if (cs !== undefined && cs !== null && !semanticEqual(cs, old.spec?.configSource)) {
        throw newAdmissionForbidden(a, `node ${n} is not allowed to update configSource to a new non-nil configSource`);
      }
      if (!semanticEqual(node.spec?.taints, old.spec?.taints)) throw newAdmissionForbidden(a, `node ${n} is not allowed to modify taints`);
      const forbidden = this.labels.forbidden(modifiedLabels(node.metadata?.labels, old.metadata?.labels));
      if (forbidden.length > 0) throw newAdmissionForbidden(a, `is not allowed to modify labels: ${forbidden.join(', ')}`);
    }
  }

  private async admitServiceAccount(nodeName: string, a: Attributes): Promise<void> {
    if (a.operation !== 'CREATE' || a.subresource !== 'token') return;
    const tr = a.object as { spec?: { boundObjectRef?: { kind?: string; apiVersion?: string; name?: string; uid?: string } | null } } | undefined;
    if (!isObject(tr)) throw newAdmissionForbidden(a, `unexpected type ${typeName(tr)}`);
    const ref = tr.spec?.boundObjectRef;
    if (!ref || ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || !ref.name) {
      throw newAdmissionForbidden(a, 'node requested token not bound to a pod');
    }
    if (!ref.uid) throw newAdmissionForbidden(a, 'node requested token with a pod binding without a uid');
    const pod = await this.lookup(this.pods, a.namespace, ref.name) as Pod | undefined;
    if (!pod) throw this.notFound('pod', ref.name);
    if (ref.uid !== (pod.metadata?.uid ?? '')) {
      throw newAdmissionForbidden(a, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
    }
    if ((pod.spec?.nodeName ?? '') !== nodeName) throw newAdmissionForbidden(a, 'node requested token bound to a pod scheduled on a different node');
  }

  private admitLease(nodeName: string, a: Attributes): void {
    if (a.namespace !== NodeLeaseNamespace) {
      throw newAdmissionForbidden(a, `can only access leases in the ${JSON.stringify(NodeLeaseNamespace)} system namespace`);
    }
    const name = a.operation === 'CREATE' ? objectName(a.object) : a.name;
    if (name !== nodeName) throw newAdmissionForbidden(a, 'can only access node lease with the same name as the requesting node');
  }

  private admitCSINode(nodeName: string, a: Attributes): void {
    if (a.operation === 'CREATE') {
      if (!isObject(a.object)) throw newAdmissionForbidden(a, 'unable to access the object name');
      if (objectName(a.object) !== nodeName) throw newAdmissionForbidden(a, 'can only access CSINode with the same name as the requesting node');
    } else if (a.name !== nodeName) {
      throw newAdmissionForbidden(a, 'can only access CSINode with the same name as the requesting node');
    }
  }
}

function objectName(o: AdmissionObject | undefined): string {
  const meta = o?.['metadata'];
  return isRecord(meta) && typeof meta['name'] === 'string' ? meta['name'] : '';
}

export const nodeRestrictionFactory: PluginFactory = (_configuration: unknown, deps: PluginDeps) => {
  const pods = deps.lister('', 'pods');
  if (!pods) throw new Error(`${PluginName} requires a pod getter`);
  const nodes = deps.lister('', 'nodes');
  if (!nodes) throw new Error(`${PluginName} requires a node getter`);
  return new NodeRestrictionPlugin(deps.domain, pods, nodes);
};
