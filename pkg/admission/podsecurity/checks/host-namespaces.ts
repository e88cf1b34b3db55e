// Baseline, from v1.0: no sharing of the node's network, PID or IPC namespace.
import { allowed, forbidden, type Check } from '../check.js';

export const checkHostNamespaces: Check = {
  id: 'hostNamespaces',
  level: 'baseline',
  versions: [{
    minimumVersion: 0,
    checkPod: (_meta, spec) => {
      const shared = [
        ...(spec.hostNetwork ? ['hostNetwork=true'] : []),
        ...(spec.hostPID ? ['hostPID=true'] : []),
        ...(spec.hostIPC ? ['hostIPC=true'] : []),
      ];
      return shared.length > 0 ? forbidden('host namespaces', shared.join(', ')) : allowed;
    },
  }],
};
