// Restricted, from v1.22 (replacing the baseline capabilities check): every container drops ALL
// and adds nothing but NET_BIND_SERVICE. From v1.25 a Windows pod (spec.os.name) is exempt.
import type { PodSpec } from '../../../../api/core/v1/pod-template.js';
import { allContainers, allowed, containersNamed, forbidden, isWindowsPod, joinQuote, sortedSet, type Check, type CheckResult } from '../check.js';
import { capabilitiesBaselineID } from './capabilities-baseline.js';

function capabilitiesRestricted(spec: PodSpec): CheckResult {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbiddenCaps: string[] = [];
  for (const c of allContainers(spec)) {
    const caps = c.securityContext?.capabilities;
    if (!caps) {
      missingDropAll.push(c.name);
      continue;
    }
    if (!(caps.drop ?? []).includes('ALL')) missingDropAll.push(c.name);
    const extra = (caps.add ?? []).filter((cap) => cap !== 'NET_BIND_SERVICE');
    if (extra.length > 0) addingForbidden.push(c.name);
    forbiddenCaps.push(...extra);
  }
  const details = [
    ...(missingDropAll.length > 0 ? [`${containersNamed(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`] : []),
    ...(addingForbidden.length > 0 ? [`${containersNamed(addingForbidden)} must not include ${joinQuote(sortedSet(forbiddenCaps))} in securityContext.capabilities.add`] : []),
  ];
  return details.length > 0 ? forbidden('unrestricted capabilities', details.join('; ')) : allowed;
}

export const checkCapabilitiesRestricted: Check = {
  id: 'capabilities_restricted',
  level: 'restricted',
  versions: [
    { minimumVersion: 22, checkPod: (_meta, spec) => capabilitiesRestricted(spec), overrides: [capabilitiesBaselineID] },
    { minimumVersion: 25, checkPod: (_meta, spec) => (isWindowsPod(spec) ? allowed : capabilitiesRestricted(spec)), overrides: [capabilitiesBaselineID] },
  ],
};
