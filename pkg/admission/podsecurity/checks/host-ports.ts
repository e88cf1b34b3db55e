// Baseline, from v1.0: no container port bound on the node (hostPort unset or 0).
import { allContainers, allowed, containersNamed, forbidden, pluralize, sortedSet, type Check } from '../check.js';

export const checkHostPorts: Check = {
  id: 'hostPorts',
  level: 'baseline',
  versions: [{
    minimumVersion: 0,
    checkPod: (_meta, spec) => {
      const bad: string[] = [];
      const ports: string[] = [];
      for (const c of allContainers(spec)) {
        const used = (c.ports ?? []).filter((p) => p.hostPort !== undefined && p.hostPort !== 0).map((p) => String(p.hostPort));
        if (used.length > 0) bad.push(c.name);
        ports.push(...used);
      }
      if (bad.length === 0) return allowed;
      const sorted = sortedSet(ports);
      return forbidden('hostPort', `${containersNamed(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', sorted.length)} ${sorted.join(', ')}`);
    },
  }],
};
