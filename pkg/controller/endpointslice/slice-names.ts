// The label and annotation keys the endpoint slice controllers write and read, in the platform's
// domain (upstream's kubernetes.io/service-name, endpointslice.kubernetes.io/managed-by, ...), and
// the managed-by values that tell the two controllers' slices apart.
import type { ApiDomain } from '../../../api/domain.js';

export interface SliceNames {
  /** The group the slices are served in: discovery.<domain>. */
  group: string;
  /** `kubernetes.io/service-name`: the service (or Endpoints) a slice belongs to. */
  serviceName: string;
  /** `endpointslice.kubernetes.io/managed-by`: which controller owns a slice. */
  managedBy: string;
  /** `service.kubernetes.io/headless`, on the slices of a service without a cluster IP. */
  headless: string;
  /** `endpointslice.kubernetes.io/skip-mirror`: an Endpoints labelled "true" is not mirrored. */
  skipMirror: string;
  /** `endpoints.kubernetes.io/last-change-trigger-time`. */
  triggerTime: string;
  /** `control-plane.alpha.kubernetes.io/leader`: leader-election records, never mirrored. */
  leader: string;
  /** The managed-by value of the endpointslice controller: `endpointslice-controller.k8s.io` upstream. */
  sliceController: string;
  /** The managed-by value of the mirroring controller: `endpointslicemirroring-controller.k8s.io` upstream. */
  mirroringController: string;
}

export function sliceNames(d: ApiDomain): SliceNames {
  return {
    group: d.group('discovery'),
    serviceName: d.key('service-name'),
    managedBy: d.key('managed-by', 'endpointslice'),
    headless: d.key('headless', 'service'),
    skipMirror: d.key('skip-mirror', 'endpointslice'),
    triggerTime: d.key('last-change-trigger-time', 'endpoints'),
    leader: d.key('leader', 'control-plane.alpha'),
    // Upstream spells these values with its group domain (k8s.io), not its key domain.
    sliceController: `endpointslice-controller.${d.name}`,
    mirroringController: `endpointslicemirroring-controller.${d.name}`,
  };
}
