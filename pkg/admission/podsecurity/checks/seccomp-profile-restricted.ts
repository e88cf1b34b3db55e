// Restricted, from v1.19 (replacing the baseline seccomp check): the pod or every container sets a
// seccomp profile of type RuntimeDefault or Localhost. From v1.25 a Windows pod is exempt.
import type { PodSpec } from '../../../../api/core/v1/pod-template.js';
import { allContainers, allowed, containersNamed, forbidden, isWindowsPod, type Check, type CheckResult } from '../check.js';
import { badSeccompResult, badSeccompSetters, seccompBaselineID, validSeccompType } from './seccomp-profile-baseline.js';

function seccompRestricted(spec: PodSpec): CheckResult {
  const bad = badSeccompSetters(spec);
  if (bad.setters.length > 0) return badSeccompResult(bad);
  const podProfile = spec.securityContext?.seccompProfile;
  const podSet = podProfile !== undefined && podProfile !== null && validSeccompType(podProfile.type);
  const unset = podSet ? [] : allContainers(spec).filter((c) => !c.securityContext?.seccompProfile).map((c) => c.name);
  return unset.length > 0
    ? forbidden('seccompProfile', `pod or ${containersNamed(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`)
    : allowed;
}

export const checkSeccompProfileRestricted: Check = {
  id: 'seccompProfile_restricted',
  level: 'restricted',
  versions: [
    { minimumVersion: 19, checkPod: (_meta, spec) => seccompRestricted(spec), overrides: [seccompBaselineID] },
    { minimumVersion: 25, checkPod: (_meta, spec) => (isWindowsPod(spec) ? allowed : seccompRestricted(spec)), overrides: [seccompBaselineID] },
  ],
};
