// The SecurityContextDeny plug-in (upstream plugin/pkg/admission/securitycontext/scdeny, removed in
// 1.30; this is its last form): refuses pod creates and updates that set supplemental groups,
// SELinux options, a user or an fsGroup in the pod's security context, or SELinux options or a user
// in an init or regular container's. Sub-resources and other resources pass.
import { newBadRequest } from '../../runtime/errors.js';
import { newForbiddenNamed } from '../errors.js';
import { handlesOperations, type Attributes, type ValidationInterface } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'SecurityContextDeny';

interface ContainerSC { securityContext?: { seLinuxOptions?: unknown; runAsUser?: unknown } | null }
interface PodLike {
  metadata?: { name?: string };
  spec?: {
    securityContext?: { supplementalGroups?: unknown; seLinuxOptions?: unknown; runAsUser?: unknown; fsGroup?: unknown } | null;
    initContainers?: ContainerSC[];
    containers?: ContainerSC[];
  };
}

const set = (v: unknown) => v !== undefined && v !== null;

/** The refusal message for the pod, or undefined when it sets none of the denied fields. */
export function securityContextRefusal(pod: PodLike): string | undefined {
  const psc = pod.spec?.securityContext;
  if (psc) {
    if (set(psc.supplementalGroups)) return 'SecurityContext.SupplementalGroups is forbidden';
    if (set(psc.seLinuxOptions)) return 'pod.Spec.SecurityContext.SELinuxOptions is forbidden';
    if (set(psc.runAsUser)) return 'pod.Spec.SecurityContext.RunAsUser is forbidden';
    if (set(psc.fsGroup)) return 'SecurityContext.FSGroup is forbidden';
  }
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
    const sc = c.securityContext;
    if (!sc) continue;
    if (set(sc.seLinuxOptions)) return 'SecurityContext.SELinuxOptions is forbidden';
    if (set(sc.runAsUser)) return 'SecurityContext.RunAsUser is forbidden';
  }
  return undefined;
}

export class SecurityContextDenyPlugin implements ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE', 'UPDATE');

  validate(attrs: Attributes): void {
    if (attrs.subresource !== '' || attrs.resource.group !== '' || attrs.resource.resource !== 'pods') return;
    const pod = attrs.object;
    if (typeof pod !== 'object' || pod === null || Array.isArray(pod)) {
      throw newBadRequest('Resource was marked with kind Pod but was unable to be converted');
    }
    const why = securityContextRefusal(pod as PodLike);
    // Upstream refuses with apierrors.NewForbidden: the object's own name, none on a generateName create.
    if (why) throw newForbiddenNamed({ group: '', resource: 'pods' }, (pod as PodLike).metadata?.name ?? '', why);
  }
}

export const securityContextDenyFactory: PluginFactory = () => new SecurityContextDenyPlugin();
