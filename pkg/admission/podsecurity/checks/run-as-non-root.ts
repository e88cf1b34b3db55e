// Restricted, from v1.0: the pod or every container sets runAsNonRoot=true, and none sets it false.
import { allContainers, allowed, containersNamed, forbidden, type Check } from '../check.js';

export const checkRunAsNonRoot: Check = {
  id: 'runAsNonRoot',
  level: 'restricted',
  versions: [{
    minimumVersion: 0,
    checkPod: (_meta, spec) => {
      const setters: string[] = [];
      const podValue = spec.securityContext?.runAsNonRoot;
      if (podValue === false) setters.push('pod');
      const explicit: string[] = [];
      const implicit: string[] = [];
      for (const c of allContainers(spec)) {
        const v = c.securityContext?.runAsNonRoot;
        if (v === false) explicit.push(c.name);
        else if (v === undefined || v === null) {
          if (podValue !== true) implicit.push(c.name);
        }
      }
      if (explicit.length > 0) setters.push(containersNamed(explicit));
      if (setters.length > 0) return forbidden('runAsNonRoot != true', `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false`);
      return implicit.length > 0
        ? forbidden('runAsNonRoot != true', `pod or ${containersNamed(implicit)} must set securityContext.runAsNonRoot=true`)
        : allowed;
    },
  }],
};
