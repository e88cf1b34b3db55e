// Baseline, from v1.0: neither the pod nor a container runs as a Windows host process.
import { allContainers, allowed, containersNamed, forbidden, type Check } from '../check.js';

export const checkWindowsHostProcess: Check = {
  id: 'windowsHostProcess',
  level: 'baseline',
  versions: [{
    minimumVersion: 0,
    checkPod: (_meta, spec) => {
      const bad = allContainers(spec).filter((c) => c.securityContext?.windowsOptions?.hostProcess === true).map((c) => c.name);
      const setters = [
        ...(spec.securityContext?.windowsOptions?.hostProcess === true ? ['pod'] : []),
        ...(bad.length > 0 ? [containersNamed(bad)] : []),
      ];
      return setters.length > 0
        ? forbidden('hostProcess', `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`)
        : allowed;
    },
  }],
};
