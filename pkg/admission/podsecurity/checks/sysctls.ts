// Baseline, from v1.0: only the sysctls known to be namespaced and isolated per pod, a list that
// grew in v1.27 and v1.29.
import type { PodSpec } from '../../../../api/core/v1/pod-template.js';
import { allowed, forbidden, type Check, type CheckResult } from '../check.js';

const safe1Dot0 = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'];
const safe1Dot27 = [...safe1Dot0, 'net.ipv4.ip_local_reserved_ports'];
const safe1Dot29 = [...safe1Dot27, 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes'];

function sysctls(spec: PodSpec, safe: ReadonlySet<string>): CheckResult {
  const bad = (spec.securityContext?.sysctls ?? []).map((s) => s.name).filter((name) => !safe.has(name));
  return bad.length > 0 ? forbidden('forbidden sysctls', bad.join(', ')) : allowed;
}

const revision = (minimumVersion: number, names: string[]) => {
  const safe = new Set(names);
  return { minimumVersion, checkPod: (_meta: unknown, spec: PodSpec) => sysctls(spec, safe) };
};

export const checkSysctls: Check = {
  id: 'sysctls',
  level: 'baseline',
  versions: [revision(0, safe1Dot0), revision(27, safe1Dot27), revision(29, safe1Dot29)],
};
