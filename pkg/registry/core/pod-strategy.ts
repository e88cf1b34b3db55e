// What Pods add to the generic strategy: a new pod starts Pending with its QoS class computed
// (upstream's PrepareForCreate), and upstream's selectable fields for field selectors.
import type { Pod } from '../../../api/core/v1/pod.js';
import type { StoredObject } from '../../storage/interface.js';
import type { StrategyOverrides } from '../generic/strategy.js';
import { podQOSClass } from './pod-qos.js';

const pod = (o: StoredObject) => o as unknown as Pod;

export const podStrategy: StrategyOverrides = {
  // DELETE answers with the pod, as upstream's pod storage does.
  returnDeletedObject: true,
  prepareForCreate: (obj) => {
    obj.status = { phase: 'Pending', qosClass: podQOSClass(pod(obj)) };
  },
  selectableFields: {
    'spec.nodeName': (o) => pod(o).spec?.nodeName ?? '',
    'spec.restartPolicy': (o) => pod(o).spec?.restartPolicy ?? '',
    'spec.schedulerName': (o) => pod(o).spec?.schedulerName ?? '',
    'spec.serviceAccountName': (o) => pod(o).spec?.serviceAccountName ?? '',
    'spec.hostNetwork': (o) => String(pod(o).spec?.hostNetwork ?? false),
    'status.phase': (o) => pod(o).status?.phase ?? '',
    // Upstream matches the first pod IP.
    'status.podIP': (o) => pod(o).status?.podIPs?.[0]?.ip ?? '',
    'status.nominatedNodeName': (o) => pod(o).status?.nominatedNodeName ?? '',
  },
};
