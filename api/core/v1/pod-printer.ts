// The cells of `kubectl get pods`, computed as upstream's printPod does: ready/total containers,
// the STATUS reason (init progress, a waiting or terminated container's reason, Terminating),
// restarts with the time of the last one, and the -o wide columns.
import { timestampSince } from '../../printer-column.js';
import type { Container } from './container.js';
import type { ContainerStatus, Pod } from './pod.js';

export interface PodSummary {
  ready: string;
  status: string;
  restarts: string;
}

const isRestartable = (c: Container | undefined) => c?.restartPolicy === 'Always';

/** Later of two RFC 3339 times ('' is the zero time). */
const later = (a: string, b: string | null | undefined) => (b && (a === '' || Date.parse(b) > Date.parse(a)) ? b : a);

/** READY, STATUS and RESTARTS of a pod at `now`. */
export function summarizePod(pod: Pod, now: Date): PodSummary {
  const spec = pod.spec;
  const status = pod.status ?? {};
  const initSpecs = new Map((spec?.initContainers ?? []).map((c) => [c.name, c]));
  let restarts = 0;
  let sidecarRestarts = 0;
  const total = (spec?.containers ?? []).length + (spec?.initContainers ?? []).filter(isRestartable).length;
  let ready = 0;
  let lastRestart = '';
  let lastSidecarRestart = '';
  let reason: string = status.reason || status.phase || '';
  for (const c of status.conditions ?? []) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }
  const initStatuses = status.initContainerStatuses ?? [];
  let initializing = false;
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i]!;
    restarts += c.restartCount ?? 0;
    lastRestart = later(lastRestart, c.lastState?.terminated?.finishedAt);
    const sidecar = isRestartable(initSpecs.get(c.name));
    if (sidecar) {
      sidecarRestarts += c.restartCount ?? 0;
      lastSidecarRestart = later(lastSidecarRestart, c.lastState?.terminated?.finishedAt);
    }
    const terminated = c.state?.terminated;
    const waiting = c.state?.waiting;
    if (terminated && terminated.exitCode === 0) continue;
    if (sidecar && c.started === true) {
      if (c.ready) ready++;
      continue;
    }
    if (terminated) {
      reason = terminated.reason
        ? `Init:${terminated.reason}`
        : terminated.signal ? `Init:Signal:${terminated.signal}` : `Init:ExitCode:${terminated.exitCode}`;
    } else if (waiting?.reason && waiting.reason !== 'PodInitializing') {
      reason = `Init:${waiting.reason}`;
    } else {
      reason = `Init:${i}/${initSpecs.size}`;
    }
    initializing = true;
    break;
  }
  const initialized = (status.conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initialized) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses: ContainerStatus[] = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      restarts += c.restartCount ?? 0;
      lastRestart = later(lastRestart, c.lastState?.terminated?.finishedAt);
      const terminated = c.state?.terminated;
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (terminated?.reason) reason = terminated.reason;
      else if (terminated) reason = terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode}`;
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
    }
  }
  const deleting = !!pod.metadata?.deletionTimestamp;
  if (deleting && status.reason === 'NodeLost') reason = 'Unknown';
  else if (deleting && status.phase !== 'Succeeded' && status.phase !== 'Failed') reason = 'Terminating';
  const restartsCell = restarts !== 0 && lastRestart !== '' ? `${restarts} (${timestampSince(lastRestart, now)} ago)` : String(restarts);
  return { ready: `${ready}/${total}`, status: reason, restarts: restartsCell };
}

/** READINESS GATES: true gates/all gates, `<none>` without gates. */
export function readinessGates(pod: Pod): string {
  const gates = pod.spec?.readinessGates ?? [];
  if (gates.length === 0) return '<none>';
  const conditions = pod.status?.conditions ?? [];
  const trueGates = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
  return `${trueGates}/${gates.length}`;
}
