// Every controller the manager can run, by its upstream name, in one place: adding a controller is
// one line in `registrations` (and, when upstream has one, one line in `concurrencyFlags`).
import type { ControllerFactory } from '../../../pkg/controller/controller.js';
import { NamespaceController } from '../../../pkg/controller/namespace/namespace-controller.js';
import { RootCACertPublisher } from '../../../pkg/controller/rootcacertpublisher/publisher.js';
import { ServiceAccountsController } from '../../../pkg/controller/serviceaccount/serviceaccounts-controller.js';
import { disruptionController } from '../../../pkg/controller/disruption/controller.js';
import { garbagecollectorController } from '../../../pkg/controller/garbagecollector/controller.js';
import { resourcequotaController } from '../../../pkg/controller/resourcequota/controller.js';
import { replicasetController } from '../../../pkg/controller/replicaset/controller.js';
import { deploymentController } from '../../../pkg/controller/deployment/controller.js';
import { statefulsetController } from '../../../pkg/controller/statefulset/controller.js';

export interface ControllerRegistration {
  /** Upstream's name, as --controllers spells it. */
  name: string;
  factory: ControllerFactory;
  /** Whether `*` enables it (upstream's ControllersDisabledByDefault are false here). */
  enabledByDefault: boolean;
}

/** The controllers, in the order they start. */
export const registrations: ControllerRegistration[] = [
  { name: 'namespace', factory: () => new NamespaceController(), enabledByDefault: true },
  { name: 'serviceaccount', factory: () => new ServiceAccountsController(), enabledByDefault: true },
  { name: 'root-ca-cert-publisher', factory: () => new RootCACertPublisher(), enabledByDefault: true },
  { name: 'garbagecollector', factory: garbagecollectorController, enabledByDefault: true },
  { name: 'resourcequota', factory: resourcequotaController, enabledByDefault: true },
  { name: 'disruption', factory: disruptionController, enabledByDefault: true },
  { name: 'replicaset', factory: replicasetController, enabledByDefault: true },
  { name: 'deployment', factory: deploymentController, enabledByDefault: true },
  { name: 'statefulset', factory: statefulsetController, enabledByDefault: true },
];

export interface ConcurrencyFlag {
  /** `--concurrent-<stem>-syncs`; what ControllerContext.concurrency(stem) answers. */
  stem: string;
  default: number;
  describe: string;
}

/** Upstream's `--concurrent-*-syncs` of the controllers we have (or are about to have), with upstream's defaults. */
export const concurrencyFlags: ConcurrencyFlag[] = [
  { stem: 'namespace', default: 10, describe: 'The number of namespace objects that are allowed to sync concurrently. Larger number = more responsive namespace termination, but more CPU (and network) load.' },
  { stem: 'serviceaccount-token', default: 5, describe: 'The number of service account token objects that are allowed to sync concurrently. Larger number = more responsive token generation, but more CPU (and network) load.' },
  { stem: 'gc', default: 20, describe: 'The number of garbage collector workers that are allowed to sync concurrently.' },
  { stem: 'resource-quota', default: 5, describe: 'The number of resource quotas that are allowed to sync concurrently. Larger number = more responsive quota management, but more CPU (and network) load.' },
  { stem: 'replicaset', default: 5, describe: 'The number of replica sets that are allowed to sync concurrently. Larger number = more responsive replica management, but more CPU (and network) load' },
  { stem: 'deployment', default: 5, describe: 'The number of deployment objects that are allowed to sync concurrently. Larger number = more responsive deployments, but more CPU (and network) load' },
  { stem: 'statefulset', default: 5, describe: 'The number of statefulset objects that are allowed to sync concurrently. Larger number = more responsive statefulsets, but more CPU (and network) load' },
];

export function knownControllerNames(): string[] {
  return registrations.map((r) => r.name);
}

/** Whether --controllers enables `name`: an explicit `-name` wins, then `name`, then `*` for the default-on set. */
export function isControllerEnabled(name: string, controllers: readonly string[], enabledByDefault: boolean): boolean {
  let hasStar = false;
  for (const c of controllers) {
    if (c === name) return true;
    if (c === `-${name}`) return false;
    if (c === '*') hasStar = true;
  }
  return hasStar && enabledByDefault;
}

/** The registrations --controllers enables, in start order. */
export function enabledControllers(controllers: readonly string[]): ControllerRegistration[] {
  return registrations.filter((r) => isControllerEnabled(r.name, controllers, r.enabledByDefault));
}
