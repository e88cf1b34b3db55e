// apps/v1: workload controllers.
import { type PrinterColumn, ageColumn, formatLabelSelector, nameColumn } from '../../printer-column.js';
import { podTemplateColumns, selectorString } from '../../pod-template-columns.js';
import { defineKind, type GroupVersionRegistration, type ScaleAdapter } from '../../registration.js';
import { scaleKind } from '../../autoscaling/v1/scale.js';
import type { LabelSelector } from '../../meta/v1/types.js';
import { ControllerRevision } from './controller-revision.js';
import { DaemonSet, defaultDaemonSet } from './daemon-set.js';
import { Deployment, defaultDeployment } from './deployment.js';
import { ReplicaSet, defaultReplicaSet } from './replica-set.js';
import { StatefulSet, defaultStatefulSet } from './stateful-set.js';

/** The shape the workload kinds share: replicas, a selector and a pod template. */
interface Workload {
  spec?: {
    replicas?: number;
    selector?: LabelSelector;
    template?: { spec?: { containers?: { name: string; image?: string }[] } };
  };
  status?: { replicas?: number };
}

export function workloadScale<T extends Workload>(): ScaleAdapter<T> {
  return {
    specReplicas: (s) => s.spec?.replicas ?? 1,
    setSpecReplicas: (s, replicas) => {
      if (s.spec) s.spec.replicas = replicas;
    },
    statusReplicas: (s) => s.status?.replicas ?? 0,
    selector: (s) => selectorString(s.spec?.selector),
  };
}

/** The wide columns upstream's printers give the workloads (Selector not for StatefulSets). */
function templateColumns<T extends Workload>(withSelector: boolean, selectorDescription = ''): PrinterColumn<T>[] {
  return podTemplateColumns<T>((s) => s.spec?.template,
    withSelector ? { cell: (s) => selectorString(s.spec?.selector), description: selectorDescription } : undefined);
}

/** An owner reference's kind as upstream prints it: lower-case Kind.group, then the name. */
function controllerCell(obj: ControllerRevision): string {
  const ref = (obj.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const apiVersion = ref.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = group ? `${ref.kind}.${group}` : ref.kind;
  return kind ? `${kind.toLowerCase()}/${ref.name}` : ref.name;
}

export const appsV1: GroupVersionRegistration = {
  group: 'apps',
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'StatefulSet', resource: 'statefulsets', singular: 'statefulset', namespaced: true,
      shortNames: ['sts'], categories: ['all'], subresources: ['status', 'scale'], schema: StatefulSet, defaulter: defaultStatefulSet,
      subresourceKinds: { scale: scaleKind },
      scale: workloadScale(),
      printerColumns: [
        nameColumn,
        { name: 'Ready', type: 'string', description: 'Ready pods out of the desired replicas.', priority: 0,
          cell: (s) => `${s.status?.readyReplicas ?? 0}/${s.spec?.replicas ?? 1}` },
        ageColumn,
        ...templateColumns(false),
      ],
    }),
    defineKind({
      kind: 'Deployment', resource: 'deployments', singular: 'deployment', namespaced: true,
      shortNames: ['deploy'], categories: ['all'], subresources: ['status', 'scale'], schema: Deployment, defaulter: defaultDeployment,
      subresourceKinds: { scale: scaleKind },
      scale: workloadScale(),
      printerColumns: [
        nameColumn,
        { name: 'Ready', type: 'string', description: 'Ready pods out of the desired replicas.', priority: 0,
          cell: (d) => `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 1}` },
        // Upstream declares these two as strings yet fills them with integers.
        { name: 'Up-to-date', type: 'string', description: 'Pods made from the current pod template.', priority: 0,
          cell: (d) => d.status?.updatedReplicas ?? 0 },
        { name: 'Available', type: 'string', description: 'Pods ready for at least minReadySeconds.', priority: 0,
          cell: (d) => d.status?.availableReplicas ?? 0 },
        ageColumn,
        ...templateColumns(true, 'Label query over the pods of the Deployment.'),
      ],
    }),
    defineKind({
      kind: 'ReplicaSet', resource: 'replicasets', singular: 'replicaset', namespaced: true,
      shortNames: ['rs'], categories: ['all'], subresources: ['status', 'scale'], schema: ReplicaSet, defaulter: defaultReplicaSet,
      subresourceKinds: { scale: scaleKind },
      scale: workloadScale(),
      printerColumns: [
        nameColumn,
        { name: 'Desired', type: 'integer', description: 'Desired number of pods.', priority: 0, cell: (r) => r.spec?.replicas ?? 1 },
        { name: 'Current', type: 'integer', description: 'Number of pods the ReplicaSet last counted.', priority: 0, cell: (r) => r.status?.replicas ?? 0 },
        { name: 'Ready', type: 'integer', description: 'Number of pods with a Ready condition.', priority: 0, cell: (r) => r.status?.readyReplicas ?? 0 },
        ageColumn,
        ...templateColumns(true, 'Label query over the pods of the ReplicaSet.'),
      ],
    }),
    defineKind({
      kind: 'DaemonSet', resource: 'daemonsets', singular: 'daemonset', namespaced: true,
      shortNames: ['ds'], categories: ['all'], subresources: ['status'], schema: DaemonSet, defaulter: defaultDaemonSet,
      printerColumns: [
        nameColumn,
        { name: 'Desired', type: 'integer', description: 'Number of nodes that should run the daemon pod.', priority: 0,
          cell: (d) => d.status?.desiredNumberScheduled ?? 0 },
        { name: 'Current', type: 'integer', description: 'Number of nodes that run the daemon pod and should.', priority: 0,
          cell: (d) => d.status?.currentNumberScheduled ?? 0 },
        { name: 'Ready', type: 'integer', description: 'Number of nodes with a ready daemon pod.', priority: 0,
          cell: (d) => d.status?.numberReady ?? 0 },
        { name: 'Up-to-date', type: 'integer', description: 'Number of nodes running a pod of the current template.', priority: 0,
          cell: (d) => d.status?.updatedNumberScheduled ?? 0 },
        { name: 'Available', type: 'integer', description: 'Number of nodes with an available daemon pod.', priority: 0,
          cell: (d) => d.status?.numberAvailable ?? 0 },
        { name: 'Node Selector', type: 'string', description: 'The node labels the pod template requires (nodeSelector).', priority: 0,
          cell: (d) => formatLabelSelector({ matchLabels: d.spec?.template?.spec?.nodeSelector ?? {} }) },
        ageColumn,
        ...podTemplateColumns<DaemonSet>((d) => d.spec?.template,
          { cell: (d) => selectorString(d.spec?.selector), description: 'Label query over the pods of the DaemonSet.' }),
      ],
    }),
    defineKind({
      kind: 'ControllerRevision', resource: 'controllerrevisions', singular: 'controllerrevision', namespaced: true,
      schema: ControllerRevision,
      printerColumns: [
        nameColumn,
        { name: 'Controller', type: 'string', description: 'The controller (owner) the revision belongs to.', priority: 0, cell: controllerCell },
        // Upstream declares it a string yet fills it with the integer.
        { name: 'Revision', type: 'string', description: 'Number of the revision.', priority: 0, cell: (c) => c.revision },
        ageColumn,
      ],
    }),
  ],
};
