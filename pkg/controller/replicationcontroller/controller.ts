// The replicationcontroller controller (upstream's ReplicationManager, `replicationcontroller`):
// upstream runs the ReplicaSet controller over ReplicationControllers through an adapter, and so
// does this one. The only difference the controller sees is the selector, an equality-only label
// map read as a LabelSelector's matchLabels; pods are owned by `v1` ReplicationControllers, events
// come from `replication-controller`, and --concurrent-rc-syncs sets the workers.
import type { ReplicationController } from '../../../api/core/v1/replication-controller.js';
import type { KubeObject } from '../../client/index.js';
import type { ControllerFactory } from '../controller.js';
import { ReplicaSetController } from '../replicaset/controller.js';

type ReplicationControllerObject = ReplicationController & KubeObject;

export const replicationcontrollerController: ControllerFactory = () => new ReplicaSetController<ReplicationControllerObject>({
  name: 'replicationcontroller', group: '', version: 'v1', resource: 'replicationcontrollers', kind: 'ReplicationController',
  component: 'replication-controller', concurrencyStem: 'rc',
  selector: (rc) => (rc.spec?.selector ? { matchLabels: rc.spec.selector } : undefined),
});
