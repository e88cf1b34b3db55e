// The PodSecurity admission plug-in (upstream's plugin/pkg/admission/security/podsecurity, as of
// 1.30): Pod Security Admission over the server's namespace and pod caches, in the validating
// phase of pod, namespace and workload creates and updates. Its warnings reach the client as
// `Warning` headers and its notes the audit log as `pod-security.<keyDomain>/<key>` annotations.
import { handlesOperations, type Attributes, type ValidationInterface } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';
import { PodSecurityAdmission, type PodSecurityAdmissionInit } from './admission.js';
import { defaultChecks } from './checks/index.js';
import { loadPodSecurityConfiguration } from './configuration.js';
import { Evaluator } from './evaluator.js';
import { defaultNamespaceMaxPodsToCheck, defaultNamespacePodCheckTimeoutMs } from './namespace-pods.js';
import { policyKeys } from './policy.js';

export const PluginName = 'PodSecurity';

export class PodSecurityPlugin implements ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE', 'UPDATE');
  private readonly admission: PodSecurityAdmission;

  constructor(private readonly init: PodSecurityAdmissionInit) {
    this.admission = new PodSecurityAdmission(init);
  }

  async validate(attrs: Attributes): Promise<void> {
    const r = await this.admission.validate(attrs);
    for (const w of r.warnings) attrs.warn(w);
    const recorded = attrs.annotations();
    for (const [k, v] of Object.entries(r.auditAnnotations)) {
      const key = this.init.keys.prefix + k;
      // A retried write is judged again; as upstream's audit context, the first value stays.
      if (!Object.hasOwn(recorded, key)) attrs.addAnnotation(key, v);
    }
    if (r.error) throw r.error;
  }
}

/** Makes the plug-in from its PodSecurityConfiguration (none: privileged by default, no exemptions). */
export const podSecurityFactory: PluginFactory = (configuration, deps) => {
  const config = loadPodSecurityConfiguration(configuration, deps.domain);
  const namespaces = deps.lister('', 'namespaces');
  const pods = deps.lister('', 'pods');
  if (!namespaces || !pods) throw new Error('PodSecurity needs the namespace and pod caches');
  return new PodSecurityPlugin({
    configuration: config,
    evaluator: new Evaluator(defaultChecks(deps.domain)),
    keys: policyKeys(deps.domain),
    namespaces,
    pods,
    namespacePods: { maxPodsToCheck: defaultNamespaceMaxPodsToCheck, timeoutMs: defaultNamespacePodCheckTimeoutMs, now: Date.now },
  });
};
