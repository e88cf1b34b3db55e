// Quota usage of objects other than pods: claims (count, storage, and both per storage class),
// services (count, load balancers, node ports) and plain object counts under count/<resource>.<group>
// plus the legacy bare names (configmaps, secrets, ...) upstream still accepts.
import { mustParse } from '../runtime/quantity-exact.js';
import { objectCountName, type QuotaEvaluator } from './evaluator.js';
import { toUsage, type Usage } from './resource-list.js';

const one = () => mustParse('1');

/** Legacy quota names counting objects of core resources, by resource. */
const legacyCountNames: Record<string, string> = {
  configmaps: 'configmaps', secrets: 'secrets', replicationcontrollers: 'replicationcontrollers',
  resourcequotas: 'resourcequotas', services: 'services', persistentvolumeclaims: 'persistentvolumeclaims',
};

/** Counts objects of a resource; charged on create only. */
export function objectCountEvaluator(resource: string, group: string): QuotaEvaluator {
  const names = [objectCountName(resource, group)];
  if (group === '' && legacyCountNames[resource]) names.push(legacyCountNames[resource]);
  return {
    groupResource: group ? `${resource}.${group}` : resource,
    handles: (op) => op === 'CREATE',
    matchingResources: (input) => input.filter((n) => names.includes(n)),
    matchesScope: () => true,
    constraints: () => undefined,
    usage: () => new Map(names.map((n) => [n, one()])),
  };
}

export interface ClaimLike {
  metadata?: { annotations?: Record<string, string> };
  spec?: { storageClassName?: string; resources?: { requests?: Record<string, string> } };
}

export interface ClaimEvaluatorOptions {
  /** The storage group (`storage.k8s.io` upstream) naming per-class quota resources. */
  storageGroup: string;
  /** Where the beta storage-class annotation lives (`kubernetes.io` upstream). */
  keyDomain: string;
}

export function claimEvaluator(opts: ClaimEvaluatorOptions): QuotaEvaluator {
  const classSuffix = `.storageclass.${opts.storageGroup}/`;
  const plain = new Set(['count/persistentvolumeclaims', 'persistentvolumeclaims', 'requests.storage']);
  const classOf = (c: ClaimLike): string | undefined =>
    c.metadata?.annotations?.[`volume.beta.${opts.keyDomain}/storage-class`] ?? c.spec?.storageClassName;
  return {
    groupResource: 'persistentvolumeclaims',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    matchingResources: (input) => input.filter((n) => plain.has(n) ||
      (n.includes(classSuffix) && (n.endsWith('/persistentvolumeclaims') || n.endsWith('/requests.storage')))),
    matchesScope: () => true,
    constraints: () => undefined,
    usage(obj) {
      const claim = obj as ClaimLike;
      const out: Usage = new Map([['count/persistentvolumeclaims', one()], ['persistentvolumeclaims', one()]]);
      const cls = classOf(claim);
      if (cls) out.set(`${cls}${classSuffix}persistentvolumeclaims`, one());
      const storage = toUsage(claim.spec?.resources?.requests).get('storage');
      if (storage) {
        out.set('requests.storage', storage);
        if (cls) out.set(`${cls}${classSuffix}requests.storage`, storage);
      }
      return out;
    },
  };
}

export interface ServiceLike {
  spec?: { type?: string; ports?: { nodePort?: number }[]; allocateLoadBalancerNodePorts?: boolean };
}

export function serviceEvaluator(): QuotaEvaluator {
  const names = ['count/services', 'services', 'services.loadbalancers', 'services.nodeports'];
  return {
    groupResource: 'services',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    matchingResources: (input) => input.filter((n) => names.includes(n)),
    matchesScope: () => true,
    constraints: () => undefined,
    usage(obj) {
      const spec = (obj as ServiceLike).spec;
      const type = spec?.type ?? 'ClusterIP';
      const ports = spec?.ports?.length ?? 0;
      let nodePorts = 0;
      if (type === 'NodePort') nodePorts = ports;
      if (type === 'LoadBalancer') {
        nodePorts = spec?.allocateLoadBalancerNodePorts === false
          ? (spec.ports ?? []).filter((p) => p.nodePort).length : ports;
      }
      return new Map([
        ['count/services', one()], ['services', one()],
        ['services.loadbalancers', mustParse(type === 'LoadBalancer' ? '1' : '0')],
        ['services.nodeports', mustParse(String(nodePorts))],
      ]);
    },
  };
}
