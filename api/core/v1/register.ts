// The core group (served at /api/v1): the kinds of this group and version.
import { ageColumn, formatLabelSelector, nameColumn, timestampSince, type PrinterColumn } from '../../printer-column.js';
import { podTemplateColumns, selectorString } from '../../pod-template-columns.js';
import { scaleKind } from '../../autoscaling/v1/scale.js';
import type { ApiDomain } from '../../domain.js';
import { tokenRequestKind } from '../../authentication/v1/register.js';
import type { TObject } from '@sinclair/typebox';
import { defineKind, type GroupVersionRegistration, type SubresourceKind } from '../../registration.js';
import { NodeProxyOptions, PodAttachOptions, PodExecOptions, PodPortForwardOptions, PodProxyOptions, ServiceProxyOptions } from './connect-options.js';
import { ConfigMap } from './config-map.js';
import { Endpoints, defaultEndpoints } from './endpoints.js';
import { Event } from './event.js';
import { LimitRange, defaultLimitRange } from './limit-range.js';
import { PersistentVolume } from './persistent-volume.js';
import { PersistentVolumeClaim } from './persistent-volume-claim.js';
import { Namespace, defaultNamespace } from './namespace.js';
import { Node } from './node.js';
import { ReplicationController, defaultReplicationController } from './replication-controller.js';
import { Service, defaultService } from './service.js';
import { ResourceQuota } from './resource-quota.js';
import { Secret, defaultSecret } from './secret.js';
import { ServiceAccount } from './service-account.js';
import { Eviction } from '../../policy/v1/eviction.js';
import { Binding, Pod, defaultPod } from './pod.js';
import { PodLogOptions } from './pod-log-options.js';
import { readinessGates, summarizePod } from './pod-printer.js';

/** The verbs upstream's discovery lists for the streaming and the proxy sub-resources. */
const streamVerbs = ['create', 'get'];
const proxyVerbs = ['create', 'delete', 'get', 'patch', 'update'];

function connectKind(kind: string, schema: TObject, verbs: string[]): SubresourceKind {
  return { group: '', version: 'v1', kind, schema, verbs, connect: true };
}

/** The core group/version; the domain names the label every namespace carries. */
export const coreV1 = (d: ApiDomain): GroupVersionRegistration => ({
  group: '',
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'Pod', resource: 'pods', singular: 'pod', namespaced: true, shortNames: ['po'], categories: ['all'],
      subresources: ['status', 'binding', 'eviction', 'ephemeralcontainers', 'exec', 'attach', 'log', 'portforward', 'proxy'],
      subresourceKinds: {
        binding: { group: '', version: 'v1', kind: 'Binding', schema: Binding, verbs: ['create'] },
        eviction: { group: 'policy', version: 'v1', kind: 'Eviction', schema: Eviction, verbs: ['create'] },
        exec: connectKind('PodExecOptions', PodExecOptions, streamVerbs),
        attach: connectKind('PodAttachOptions', PodAttachOptions, streamVerbs),
        log: { group: '', version: 'v1', kind: 'PodLogOptions', schema: PodLogOptions, verbs: ['get'], streamed: true },
        portforward: connectKind('PodPortForwardOptions', PodPortForwardOptions, streamVerbs),
        proxy: connectKind('PodProxyOptions', PodProxyOptions, proxyVerbs),
      },
      schema: Pod, defaulter: defaultPod,
      printerColumns: [
        nameColumn,
        { name: 'Ready', type: 'string', description: 'Ready containers out of all containers (sidecars included).', priority: 0,
          cell: (p, now) => summarizePod(p, now).ready },
        { name: 'Status', type: 'string', description: 'Phase of the pod, or the reason a container or the pod is not running.', priority: 0,
          cell: (p, now) => summarizePod(p, now).status },
        { name: 'Restarts', type: 'string', description: 'Container restarts, with how long ago the last one was.', priority: 0,
          cell: (p, now) => summarizePod(p, now).restarts },
        ageColumn,
        { name: 'IP', type: 'string', description: 'Primary IP address of the pod.', priority: 1,
          cell: (p) => p.status?.podIPs?.[0]?.ip || '<none>' },
        { name: 'Node', type: 'string', description: 'Node the pod is assigned to.', priority: 1,
          cell: (p) => p.spec?.nodeName || '<none>' },
        { name: 'Nominated Node', type: 'string', description: 'Node the scheduler nominated for the pod after preempting others.', priority: 1,
          cell: (p) => p.status?.nominatedNodeName || '<none>' },
        { name: 'Readiness Gates', type: 'string', description: 'Readiness gates that are True out of all readiness gates.', priority: 1,
          cell: (p) => readinessGates(p) },
      ],
    }),
    defineKind({
      kind: 'Binding', resource: 'bindings', singular: 'binding', namespaced: true, schema: Binding, virtual: true,
    }),
    defineKind({
      kind: 'Namespace', resource: 'namespaces', singular: 'namespace', namespaced: false,
      shortNames: ['ns'], subresources: ['status', 'finalize'], unservedVerbs: ['deletecollection'], schema: Namespace, defaulter: (ns) => defaultNamespace(ns, d),
      printerColumns: [
        nameColumn,
        { name: 'Status', type: 'string', description: 'Phase of the namespace: Active or Terminating.', priority: 0,
          cell: (ns) => ns.status?.phase ?? '' },
        ageColumn,
      ],
    }),
    defineKind({
      kind: 'ConfigMap', resource: 'configmaps', singular: 'configmap', namespaced: true,
      shortNames: ['cm'], schema: ConfigMap,
      printerColumns: [
        nameColumn,
        { name: 'Data', type: 'string', description: 'Number of keys in data and binaryData.', priority: 0,
          cell: (cm) => Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length },
        ageColumn,
      ],
    }),
    defineKind({
      kind: 'Secret', resource: 'secrets', singular: 'secret', namespaced: true,
      schema: Secret, defaulter: defaultSecret,
      printerColumns: [
        nameColumn,
        { name: 'Type', type: 'string', description: 'Type of the secret, which decides the keys it must hold.', priority: 0,
          cell: (s) => s.type ?? '' },
        { name: 'Data', type: 'string', description: 'Number of keys in data.', priority: 0,
          cell: (s) => Object.keys(s.data ?? {}).length },
        ageColumn,
      ],
    }),
    defineKind({
      kind: 'ServiceAccount', resource: 'serviceaccounts', singular: 'serviceaccount', namespaced: true,
      shortNames: ['sa'], schema: ServiceAccount, subresources: ['token'], subresourceKinds: { token: tokenRequestKind(d) },
      printerColumns: [
        nameColumn,
        { name: 'Secrets', type: 'string', description: 'Number of secrets listed for the service account.', priority: 0,
          cell: (sa) => (sa.secrets ?? []).length },
        ageColumn,
      ],
    }),
    defineKind({
      kind: 'LimitRange', resource: 'limitranges', singular: 'limitrange', namespaced: true,
      shortNames: ['limits'], schema: LimitRange, defaulter: defaultLimitRange,
    }),
    defineKind({
      kind: 'ResourceQuota', resource: 'resourcequotas', singular: 'resourcequota', namespaced: true,
      shortNames: ['quota'], subresources: ['status'], schema: ResourceQuota,
      printerColumns: [
        nameColumn,
        ageColumn,
        { name: 'Request', type: 'string', description: 'Used/hard amounts of every limited resource but limits.*.', priority: 0,
          cell: (q) => quotaUsage(q.status, false) },
        { name: 'Limit', type: 'string', description: 'Used/hard amounts of the limits.* resources.', priority: 0,
          cell: (q) => quotaUsage(q.status, true) },
      ],
    }),
    defineKind({
      kind: 'Endpoints', resource: 'endpoints', singular: 'endpoints', namespaced: true,
      shortNames: ['ep'], schema: Endpoints, defaulter: defaultEndpoints,
      printerColumns: [
        nameColumn,
        { name: 'Endpoints', type: 'string', description: 'The first addresses with their ports (ip:port), and how many more there are.', priority: 0,
          cell: (ep) => formatEndpoints(ep) },
        ageColumn,
      ],
    }),
    defineKind({
      kind: 'Node', resource: 'nodes', singular: 'node', namespaced: false,
      shortNames: ['no'], subresources: ['status', 'proxy'], schema: Node,
      subresourceKinds: { proxy: connectKind('NodeProxyOptions', NodeProxyOptions, proxyVerbs) },
      printerColumns: [
        nameColumn,
        { name: 'Status', type: 'string', description: 'The status of the node: Ready, NotReady or Unknown, and SchedulingDisabled when cordoned.', priority: 0,
          cell: (n) => nodeStatus(n) },
        { name: 'Roles', type: 'string', description: 'The roles of the node, from its node-role labels.', priority: 0,
          cell: (n) => nodeRoles(n.metadata?.labels ?? {}, d.keyDomain).join(',') || '<none>' },
        ageColumn,
        { name: 'Version', type: 'string', description: 'The version of the node agent.', priority: 0,
          cell: (n) => n.status?.nodeInfo?.kubeletVersion ?? '' },
        { name: 'Internal-IP', type: 'string', description: 'The first internal IP of the node.', priority: 1,
          cell: (n) => nodeAddress(n, 'InternalIP') },
        { name: 'External-IP', type: 'string', description: 'The first external IP of the node.', priority: 1,
          cell: (n) => nodeAddress(n, 'ExternalIP') },
        { name: 'OS-Image', type: 'string', description: 'The operating system image of the node.', priority: 1,
          cell: (n) => n.status?.nodeInfo?.osImage || '<unknown>' },
        { name: 'Kernel-Version', type: 'string', description: 'The kernel version of the node.', priority: 1,
          cell: (n) => n.status?.nodeInfo?.kernelVersion || '<unknown>' },
        { name: 'Container-Runtime', type: 'string', description: 'The container runtime and its version.', priority: 1,
          cell: (n) => n.status?.nodeInfo?.containerRuntimeVersion || '<unknown>' },
      ],
    }),
    defineKind({
      kind: 'Service', resource: 'services', singular: 'service', namespaced: true,
      shortNames: ['svc'], categories: ['all'], subresources: ['status', 'proxy'], schema: Service, defaulter: defaultService,
      subresourceKinds: { proxy: connectKind('ServiceProxyOptions', ServiceProxyOptions, proxyVerbs) },
      printerColumns: [
        nameColumn,
        { name: 'Type', type: 'string', description: 'How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName.', priority: 0,
          cell: (s) => s.spec?.type ?? '' },
        { name: 'Cluster-IP', type: 'string', description: 'The virtual IP of the service.', priority: 0,
          cell: (s) => s.spec?.clusterIPs?.[0] ?? '<none>' },
        { name: 'External-IP', type: 'string', description: 'The external IPs or load balancer addresses of the service.', priority: 0,
          cell: (s) => serviceExternalIP(s, true) },
        { name: 'Port(s)', type: 'string', description: 'The ports of the service, with their node ports.', priority: 0,
          cell: (s) => servicePorts(s) || '<none>' },
        ageColumn,
        { name: 'Selector', type: 'string', description: 'The label selector of the pods behind the service.', priority: 1,
          cell: (s) => formatLabels(s.spec?.selector) },
      ],
    }),
    defineKind({
      kind: 'Event', resource: 'events', singular: 'event', namespaced: true,
      shortNames: ['ev'], schema: Event,
      printerColumns: eventColumns,
    }),
    defineKind({
      kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims', singular: 'persistentvolumeclaim', namespaced: true,
      shortNames: ['pvc'], subresources: ['status'], schema: PersistentVolumeClaim,
      printerColumns: [
        nameColumn,
        { name: 'Status', type: 'string', description: 'Phase of the claim (Pending, Bound, Lost), or Terminating once deleted.', priority: 0,
          cell: (pvc) => (pvc.metadata?.deletionTimestamp ? 'Terminating' : pvc.status?.phase ?? '') },
        { name: 'Volume', type: 'string', description: 'Name of the volume bound to the claim.', priority: 0, cell: (pvc) => pvc.spec?.volumeName ?? '' },
        { name: 'Capacity', type: 'string', description: 'Storage of the bound volume.', priority: 0,
          cell: (pvc) => (pvc.spec?.volumeName ? String(pvc.status?.capacity?.['storage'] ?? '0') : '') },
        { name: 'Access Modes', type: 'string', description: 'Access modes of the bound volume (RWO, ROX, RWX, RWOP).', priority: 0,
          cell: (pvc) => (pvc.spec?.volumeName ? accessModesString(pvc.status?.accessModes) : '') },
        { name: 'StorageClass', type: 'string', description: 'StorageClass of the claim.', priority: 0,
          cell: (pvc) => pvc.metadata?.annotations?.[betaStorageClassAnnotation(d)] ?? pvc.spec?.storageClassName ?? '' },
        { name: 'VolumeAttributesClass', type: 'string', description: 'VolumeAttributesClass the claim asks for.', priority: 0,
          cell: (pvc) => pvc.spec?.volumeAttributesClassName ?? '<unset>' },
        ageColumn,
        { name: 'VolumeMode', type: 'string', description: 'Filesystem or Block.', priority: 1, cell: (pvc) => pvc.spec?.volumeMode ?? '<unset>' },
      ],
    }),
    defineKind({
      kind: 'PersistentVolume', resource: 'persistentvolumes', singular: 'persistentvolume', namespaced: false,
      shortNames: ['pv'], subresources: ['status'], schema: PersistentVolume,
      printerColumns: [
        nameColumn,
        { name: 'Capacity', type: 'string', description: 'Storage the volume offers.', priority: 0,
          cell: (pv) => String(pv.spec?.capacity?.['storage'] ?? '0') },
        { name: 'Access Modes', type: 'string', description: 'How the volume can be mounted (RWO, ROX, RWX, RWOP).', priority: 0,
          cell: (pv) => accessModesString(pv.spec?.accessModes) },
        { name: 'Reclaim Policy', type: 'string', description: 'What happens to the volume once its claim is released.', priority: 0,
          cell: (pv) => pv.spec?.persistentVolumeReclaimPolicy ?? '' },
        { name: 'Status', type: 'string', description: 'Phase of the volume, or Terminating once deleted.', priority: 0,
          cell: (pv) => (pv.metadata?.deletionTimestamp ? 'Terminating' : pv.status?.phase ?? '') },
        { name: 'Claim', type: 'string', description: 'The claim bound to the volume, as namespace/name.', priority: 0,
          cell: (pv) => (pv.spec?.claimRef ? `${pv.spec.claimRef.namespace ?? ''}/${pv.spec.claimRef.name ?? ''}` : '') },
        { name: 'StorageClass', type: 'string', description: 'StorageClass of the volume.', priority: 0,
          cell: (pv) => pv.metadata?.annotations?.[betaStorageClassAnnotation(d)] ?? pv.spec?.storageClassName ?? '' },
        { name: 'VolumeAttributesClass', type: 'string', description: 'VolumeAttributesClass of the volume.', priority: 0,
          cell: (pv) => pv.spec?.volumeAttributesClassName ?? '<unset>' },
        { name: 'Reason', type: 'string', description: 'Why the volume is in its phase (status.reason).', priority: 0, cell: (pv) => pv.status?.reason ?? '' },
        ageColumn,
        { name: 'VolumeMode', type: 'string', description: 'Filesystem or Block.', priority: 1, cell: (pv) => pv.spec?.volumeMode ?? '<unset>' },
      ],
    }),
    defineKind({
      kind: 'ReplicationController', resource: 'replicationcontrollers', singular: 'replicationcontroller', namespaced: true,
      shortNames: ['rc'], categories: ['all'], subresources: ['status', 'scale'], schema: ReplicationController, defaulter: defaultReplicationController,
      subresourceKinds: { scale: scaleKind },
      scale: {
        specReplicas: (rc) => rc.spec?.replicas ?? 1,
        setSpecReplicas: (rc, replicas) => {
          if (rc.spec) rc.spec.replicas = replicas;
        },
        statusReplicas: (rc) => rc.status?.replicas ?? 0,
        selector: (rc) => selectorString({ matchLabels: rc.spec?.selector ?? {} }),
      },
      printerColumns: [
        nameColumn,
        { name: 'Desired', type: 'integer', description: 'Desired number of pods.', priority: 0, cell: (rc) => rc.spec?.replicas ?? 1 },
        { name: 'Current', type: 'integer', description: 'Number of pods the controller last counted.', priority: 0, cell: (rc) => rc.status?.replicas ?? 0 },
        { name: 'Ready', type: 'integer', description: 'Number of pods with a Ready condition.', priority: 0, cell: (rc) => rc.status?.readyReplicas ?? 0 },
        ageColumn,
        ...podTemplateColumns<ReplicationController>((rc) => rc.spec?.template, {
          description: 'The labels the pods of the replication controller carry.',
          cell: (rc) => formatLabelSelector({ matchLabels: rc.spec?.selector ?? {} }),
        }),
      ],
    }),
  ],
});

/** Upstream's event printer columns (also printed for events.<domain>/v1 Events). */
export const eventColumns: PrinterColumn<Event>[] = [
    { name: 'Last Seen', type: 'string', description: 'How long ago the event was last seen.', priority: 0,
      cell: (ev, now) => eventTimes(ev, now).last },
    { name: 'Type', type: 'string', description: 'Type of the event: Normal or Warning.', priority: 0, cell: (ev) => ev.type ?? '' },
    { name: 'Reason', type: 'string', description: 'Short machine-readable reason for the event.', priority: 0, cell: (ev) => ev.reason ?? '' },
    { name: 'Object', type: 'string', description: 'The object the event is about, as kind/name.', priority: 0,
      // Required, yet absent from the object of a watch-list's end mark, which is printed too.
      cell: (ev) => {
        const kind = (ev.involvedObject?.kind ?? '').toLowerCase();
        return ev.involvedObject?.name ? `${kind}/${ev.involvedObject.name}` : kind;
      } },
    { name: 'Subobject', type: 'string', description: 'The part of the object the event is about (involvedObject.fieldPath).', priority: 1,
      cell: (ev) => ev.involvedObject?.fieldPath ?? '' },
    { name: 'Source', type: 'string', description: 'The component (and host) that reported the event.', priority: 1,
      cell: (ev) => eventSource(ev.source?.component || ev.reportingComponent || '', ev.source?.host || ev.reportingInstance || '') },
    { name: 'Message', type: 'string', description: 'Human-readable description of the event.', priority: 0, cell: (ev) => (ev.message ?? '').trim() },
    { name: 'First Seen', type: 'string', description: 'How long ago the event was first seen.', priority: 1,
      cell: (ev, now) => eventTimes(ev, now).first },
    { name: 'Count', type: 'string', description: 'How many times the event has happened.', priority: 1,
      cell: (ev) => (ev.series ? ev.series.count ?? 0 : ev.count || 1) },
    { ...nameColumn, priority: 1 },
];

/**
 * Upstream's endpoints cell: `ip:port` for each ready address and port (just `ip` for a subset
 * without ports), at most three, then ` + N more...`; `<none>` without subsets.
 */
export function formatEndpoints(ep: Endpoints): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const max = 3;
  const shown: string[] = [];
  let more = false;
  let count = 0;
  const add = (entry: string) => {
    if (shown.length === max) { more = true; return false; }
    shown.push(entry);
    return true;
  };
  for (const ss of subsets) {
    const addresses = ss.addresses ?? [];
    const ports = ss.ports ?? [];
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) if (!add(a.ip)) break;
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      for (const a of addresses) if (!add(joinHostPort(a.ip, port.port))) break;
    }
  }
  const joined = shown.join(',');
  return more ? `${joined} + ${count - max} more...` : joined;
}

/** Go's net.JoinHostPort: IPv6 hosts in brackets. */
const joinHostPort = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/**
 * `<resource>: <used>/<hard>` for each resource of status.hard in name order, joined by ", ":
 * the `limits.*` resources when `limits`, the others when not. Quantities print as stored.
 */
function quotaUsage(status: ResourceQuota['status'], limits: boolean): string {
  const hard = status?.hard ?? {};
  return Object.keys(hard)
    .sort()
    .filter((r) => (r.split('.')[0] === 'limits' && r.includes('.')) === limits)
    .map((r) => `${r}: ${String(status?.used?.[r] ?? 0)}/${String(hard[r])}`)
    .join(', ');
}

/** The beta annotation that named a claim's or volume's class before storageClassName existed; it still wins. */
export const betaStorageClassAnnotation = (d: ApiDomain) => d.key('storage-class', 'volume.beta');

/** Upstream's access modes cell: RWO, ROX, RWX, RWOP in that order, each once. */
export function accessModesString(modes: readonly string[] | undefined): string {
  const have = new Set(modes ?? []);
  return ([['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP']] as const)
    .filter(([m]) => have.has(m)).map(([, s]) => s).join(',');
}

/** Upstream's event printer times: first seen falls back to eventTime, last seen to first seen, a series' last observation wins. */
function eventTimes(ev: Event, now: Date): { first: string; last: string } {
  const first = timestampSince(ev.firstTimestamp ?? ev.eventTime, now);
  let last = ev.lastTimestamp ? timestampSince(ev.lastTimestamp, now) : first;
  if (ev.series) last = timestampSince(ev.series.lastObservedTime, now);
  return { first, last };
}

/** `component, instance`, or just the component; nothing without a component. */
const eventSource = (component: string, instance: string) => (component === '' ? '' : instance === '' ? component : `${component}, ${instance}`);

/** Upstream's node status cell: Ready or NotReady from the Ready condition (Unknown without one), then SchedulingDisabled. */
export function nodeStatus(n: Node): string {
  const ready = (n.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const status = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (n.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

/**
 * The roles of a node, sorted: the suffix of every `node-role.kubernetes.io/<role>` label (and
 * of our domain's `node-role.<domain>/<role>`), and the value of `kubernetes.io/role`.
 */
export function nodeRoles(labels: Record<string, string>, keyDomain: string): string[] {
  const prefixes = [...new Set([`node-role.kubernetes.io/`, `node-role.${keyDomain}/`])];
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(labels)) {
    const prefix = prefixes.find((p) => k.startsWith(p));
    if (prefix && k.length > prefix.length) roles.add(k.slice(prefix.length));
    else if ((k === 'kubernetes.io/role' || k === `${keyDomain}/role`) && v !== '') roles.add(v);
  }
  return [...roles].sort();
}

const nodeAddress = (n: Node, type: string) => (n.status?.addresses ?? []).find((a) => a.type === type)?.address ?? '<none>';

/** Upstream's makePortString: port/protocol, or port:nodePort/protocol, comma separated. */
export function servicePorts(s: Service): string {
  return (s.spec?.ports ?? [])
    .map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol ?? 'TCP'}` : `${p.port}/${p.protocol ?? 'TCP'}`))
    .join(',');
}

/** Upstream's getServiceExternalIP (the server prints wide, so nothing is cut): external IPs, load balancer addresses, <pending>, <none> or the external name. */
export function serviceExternalIP(s: Service, wide: boolean): string {
  const externalIPs = s.spec?.externalIPs ?? [];
  switch (s.spec?.type ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = (s.status?.loadBalancer?.ingress ?? []).map((i) => i.ip || i.hostname || '').filter((x) => x !== '');
      let lb = ingress.join(',');
      if (!wide && lb.length > 16) lb = `${lb.slice(0, 13)}...`;
      if (externalIPs.length > 0) return [...(lb ? lb.split(',') : []), ...externalIPs].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return s.spec?.externalName ?? '';
    default:
      return '<unknown>';
  }
}

/** labels.FormatLabels: sorted key=value pairs, or <none>. */
function formatLabels(m: Record<string, string> | undefined): string {
  const keys = Object.keys(m ?? {}).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${m![k]}`).join(',');
}
