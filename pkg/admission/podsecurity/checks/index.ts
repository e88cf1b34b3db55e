// Every check of the Pod Security Standards as kube-apiserver 1.30 runs them, with the annotation
// keys of the platform's domain.
import type { ApiDomain } from '../../../../api/domain.js';
import type { Check } from '../check.js';
import { checkAllowPrivilegeEscalation } from './allow-privilege-escalation.js';
import { checkAppArmorProfile } from './app-armor-profile.js';
import { checkCapabilitiesBaseline } from './capabilities-baseline.js';
import { checkCapabilitiesRestricted } from './capabilities-restricted.js';
import { checkHostNamespaces } from './host-namespaces.js';
import { checkHostPathVolumes } from './host-path-volumes.js';
import { checkHostPorts } from './host-ports.js';
import { checkPrivileged } from './privileged.js';
import { checkProcMount } from './proc-mount.js';
import { checkRestrictedVolumes } from './restricted-volumes.js';
import { checkRunAsNonRoot } from './run-as-non-root.js';
import { checkRunAsUser } from './run-as-user.js';
import { checkSeccompBaseline } from './seccomp-profile-baseline.js';
import { checkSeccompProfileRestricted } from './seccomp-profile-restricted.js';
import { checkSELinuxOptions } from './se-linux-options.js';
import { checkSysctls } from './sysctls.js';
import { checkWindowsHostProcess } from './windows-host-process.js';

/** The checks, reading AppArmor and seccomp annotations under `domain`'s key domain. */
export function defaultChecks(domain: ApiDomain): Check[] {
  return [
    checkAllowPrivilegeEscalation,
    checkAppArmorProfile(domain.key('', 'container.apparmor.security.beta')),
    checkCapabilitiesBaseline,
    checkCapabilitiesRestricted,
    checkHostNamespaces,
    checkHostPathVolumes,
    checkHostPorts,
    checkPrivileged,
    checkProcMount,
    checkRestrictedVolumes,
    checkRunAsNonRoot,
    checkRunAsUser,
    checkSeccompBaseline({ pod: domain.key('pod', 'seccomp.security.alpha'), containerPrefix: domain.key('', 'container.seccomp.security.alpha') }),
    checkSeccompProfileRestricted,
    checkSELinuxOptions,
    checkSysctls,
    checkWindowsHostProcess,
  ];
}
