// Restricted, from v1.8: every container sets allowPrivilegeEscalation=false. From v1.25 a Windows
// pod is exempt (validation refuses the field there).
import type { PodSpec } from '../../../../api/core/v1/pod-template.js';
import { allContainers, allowed, containersNamed, forbidden, isWindowsPod, type Check, type CheckResult } from '../check.js';

function allowPrivilegeEscalation(spec: PodSpec): CheckResult {
  const bad = allContainers(spec).filter((c) => c.securityContext?.allowPrivilegeEscalation !== false).map((c) => c.name);
  return bad.length > 0
    ? forbidden('allowPrivilegeEscalation != false', `${containersNamed(bad)} must set securityContext.allowPrivilegeEscalation=false`)
    : allowed;
}

export const checkAllowPrivilegeEscalation: Check = {
  id: 'allowPrivilegeEscalation',
  level: 'restricted',
  versions: [
    { minimumVersion: 8, checkPod: (_meta, spec) => allowPrivilegeEscalation(spec) },
    { minimumVersion: 25, checkPod: (_meta, spec) => (isWindowsPod(spec) ? allowed : allowPrivilegeEscalation(spec)) },
  ],
};
