// Baseline, from v1.0: /proc is mounted with the runtime's masks (procMount unset or Default).
import { allContainers, allowed, containersNamed, forbidden, joinQuote, sortedSet, type Check } from '../check.js';

export const checkProcMount: Check = {
  id: 'procMount',
  level: 'baseline',
  versions: [{
    minimumVersion: 0,
    checkPod: (_meta, spec) => {
      const bad: string[] = [];
      const types: string[] = [];
      for (const c of allContainers(spec)) {
        const pm = c.securityContext?.procMount;
        if (pm === undefined || pm === null || pm === 'Default') continue;
        bad.push(c.name);
        types.push(pm);
      }
      return bad.length > 0
        ? forbidden('procMount', `${containersNamed(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`)
        : allowed;
    },
  }],
};
