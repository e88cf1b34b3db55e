// apps/v1: workload controllers.
import { ageColumn, formatLabelSelector, nameColumn } from '../../printer-column.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { scaleKind } from '../../autoscaling/v1/scale.js';
import { StatefulSet, defaultStatefulSet } from './stateful-set.js';

export const appsV1: GroupVersionRegistration = {
  group: 'apps',
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'StatefulSet', resource: 'statefulsets', singular: 'statefulset', namespaced: true,
      shortNames: ['sts'], categories: ['all'], subresources: ['status', 'scale'], schema: StatefulSet, defaulter: defaultStatefulSet,
      subresourceKinds: { scale: scaleKind },
      scale: {
        specReplicas: (s) => s.spec?.replicas ?? 1,
        setSpecReplicas: (s, replicas) => {
          if (s.spec) s.spec.replicas = replicas;
        },
        statusReplicas: (s) => s.status?.replicas ?? 0,
        selector: (s) => {
          const text = formatLabelSelector(s.spec?.selector);
          return text === '<none>' || text === '<error>' ? '' : text;
        },
      },
      printerColumns: [
        nameColumn,
        { name: 'Ready', type: 'string', description: 'Ready pods out of the desired replicas.', priority: 0,
          cell: (s) => `${s.status?.readyReplicas ?? 0}/${s.spec?.replicas ?? 1}` },
        ageColumn,
        { name: 'Containers', type: 'string', description: 'Names of the containers in the pod template.', priority: 1,
          cell: (s) => (s.spec?.template.spec?.containers ?? []).map((c) => c.name).join(',') },
        { name: 'Images', type: 'string', description: 'Images of the containers in the pod template.', priority: 1,
          cell: (s) => (s.spec?.template.spec?.containers ?? []).map((c) => c.image ?? '').join(',') },
      ],
    }),
  ],
};
