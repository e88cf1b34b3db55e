// Baseline, from v1.0: an SELinux type only among the container types, and no SELinux user or role.
import type { SELinuxOptions } from '../../../../api/core/v1/security-context.js';
import { allContainers, allowed, containersNamed, forbidden, joinQuote, pluralize, sortedSet, type Check } from '../check.js';

const allowedTypes = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);

export const checkSELinuxOptions: Check = {
  id: 'seLinuxOptions',
  level: 'baseline',
  versions: [{
    minimumVersion: 0,
    checkPod: (_meta, spec) => {
      const badTypes: string[] = [];
      let setUser = false;
      let setRole = false;
      const valid = (opts: SELinuxOptions): boolean => {
        let ok = true;
        if (!allowedTypes.has(opts.type ?? '')) {
          ok = false;
          badTypes.push(opts.type ?? '');
        }
        if (opts.user) {
          ok = false;
          setUser = true;
        }
        if (opts.role) {
          ok = false;
          setRole = true;
        }
        return ok;
      };
      const setters: string[] = [];
      const podOpts = spec.securityContext?.seLinuxOptions;
      if (podOpts && !valid(podOpts)) setters.push('pod');
      const bad = allContainers(spec).filter((c) => c.securityContext?.seLinuxOptions && !valid(c.securityContext.seLinuxOptions)).map((c) => c.name);
      if (bad.length > 0) setters.push(containersNamed(bad));
      if (setters.length === 0) return allowed;
      const types = sortedSet(badTypes);
      const data = [
        ...(types.length > 0 ? [`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`] : []),
        ...(setUser ? ['user may not be set'] : []),
        ...(setRole ? ['role may not be set'] : []),
      ];
      return forbidden('seLinuxOptions', `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}`);
    },
  }],
};
