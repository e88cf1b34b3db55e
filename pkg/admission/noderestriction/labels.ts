// Which Node labels a kubelet may set itself (upstream k8s.io/kubelet/pkg/apis IsKubeletLabel and
// the NodeRestriction plug-in's label rules), with upstream's kubernetes.io/k8s.io spelled in the
// platform's domain.
import type { ApiDomain } from '../../../api/domain.js';

const labelNamespace = (key: string): string => {
  const i = key.indexOf('/');
  return i < 0 ? '' : key.slice(0, i);
};

const inNamespace = (ns: string, domain: string) => ns === domain || ns.endsWith(`.${domain}`);

export class NodeLabelPolicy {
  private readonly kubeletLabels: Set<string>;
  private readonly kubeletNamespaces: string[];
  private readonly restrictionNamespace: string;
  private readonly platformDomains: string[];

  constructor(domain: ApiDomain) {
    const kd = domain.keyDomain;
    this.kubeletLabels = new Set([
      `${kd}/hostname`,
      `topology.${kd}/zone`,
      `topology.${kd}/region`,
      `failure-domain.beta.${kd}/zone`,
      `failure-domain.beta.${kd}/region`,
      `beta.${kd}/instance-type`,
      `node.${kd}/instance-type`,
      `${kd}/os`,
      `${kd}/arch`,
      `beta.${kd}/os`,
      `beta.${kd}/arch`,
    ]);
    this.kubeletNamespaces = [`kubelet.${kd}`, `node.${kd}`];
    this.restrictionNamespace = `node-restriction.${kd}`;
    this.platformDomains = [...new Set([kd, domain.name])];
  }

  /** A label of the platform's own namespaces (upstream: kubernetes.io and k8s.io, and their subdomains). */
  isPlatformLabel(key: string): boolean {
    const ns = labelNamespace(key);
    return this.platformDomains.some((d) => inNamespace(ns, d));
  }

  isKubeletLabel(key: string): boolean {
    if (this.kubeletLabels.has(key)) return true;
    const ns = labelNamespace(key);
    return this.kubeletNamespaces.some((d) => inNamespace(ns, d));
  }

  /** The modified keys a node may not add, change or remove, sorted. */
  forbidden(modified: Iterable<string>): string[] {
    const out = new Set<string>();
    for (const key of modified) {
      const ns = labelNamespace(key);
      if (inNamespace(ns, this.restrictionNamespace)) out.add(key);
      if (this.isPlatformLabel(key) && !this.isKubeletLabel(key)) out.add(key);
    }
    return [...out].sort();
  }
}

/** The keys whose presence or value differs between the two label maps. */
export function modifiedLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): string[] {
  const out = new Set<string>();
  const x = a ?? {};
  const y = b ?? {};
  for (const [k, v] of Object.entries(x)) if (!Object.prototype.hasOwnProperty.call(y, k) || y[k] !== v) out.add(k);
  for (const [k, v] of Object.entries(y)) if (!Object.prototype.hasOwnProperty.call(x, k) || x[k] !== v) out.add(k);
  return [...out];
}
