// Baseline, from v1.0: no privileged container.
import { allContainers, allowed, containersNamed, forbidden, type Check } from '../check.js';

export const checkPrivileged: Check = {
  id: 'privileged',
  level: 'baseline',
  versions: [{
    minimumVersion: 0,
    checkPod: (_meta, spec) => {
      const bad = allContainers(spec).filter((c) => c.securityContext?.privileged === true).map((c) => c.name);
      return bad.length > 0 ? forbidden('privileged', `${containersNamed(bad)} must not set securityContext.privileged=true`) : allowed;
    },
  }],
};
