// Baseline, from v1.0: containers add no capability beyond the container runtime's default set.
import { allContainers, allowed, containersNamed, forbidden, joinQuote, sortedSet, type Check } from '../check.js';

export const capabilitiesBaselineID = 'capabilities_baseline';

const defaultCapabilities = new Set([
  'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID',
  'SETPCAP', 'SETUID', 'SYS_CHROOT',
]);

export const checkCapabilitiesBaseline: Check = {
  id: capabilitiesBaselineID,
  level: 'baseline',
  versions: [{
    minimumVersion: 0,
    checkPod: (_meta, spec) => {
      const bad: string[] = [];
      const added: string[] = [];
      for (const c of allContainers(spec)) {
        const extra = (c.securityContext?.capabilities?.add ?? []).filter((cap) => !defaultCapabilities.has(cap));
        if (extra.length > 0) bad.push(c.name);
        added.push(...extra);
      }
      return bad.length > 0
        ? forbidden('non-default capabilities', `${containersNamed(bad)} must not include ${joinQuote(sortedSet(added))} in securityContext.capabilities.add`)
        : allowed;
    },
  }],
};
