// Restricted, from v1.23: neither the pod nor a container sets runAsUser=0.
import { allContainers, allowed, containersNamed, forbidden, type Check } from '../check.js';

export const checkRunAsUser: Check = {
  id: 'runAsUser',
  level: 'restricted',
  versions: [{
    minimumVersion: 23,
    checkPod: (_meta, spec) => {
      const setters = spec.securityContext?.runAsUser === 0 ? ['pod'] : [];
      const bad = allContainers(spec).filter((c) => c.securityContext?.runAsUser === 0).map((c) => c.name);
      if (bad.length > 0) setters.push(containersNamed(bad));
      return setters.length > 0 ? forbidden('runAsUser=0', `${setters.join(' and ')} must not set runAsUser=0`) : allowed;
    },
  }],
};
