// What every controller of the controller manager is (ARCHITECTURE section 5): informers and a
// work queue around a reconcile function, talking to the API server only through pkg/client. The
// manager builds one ControllerContext and starts each enabled controller with it; a controller
// must converge from any state, since it may be restarted at any time.
import type { Client } from '../client/client.js';
import type { SharedInformerFactory } from '../client/informer-factory.js';
import type { ApiDomain } from '../../api/domain.js';
import type { Logger } from '../log/logger.js';

export interface ControllerContext {
  /** The client of the controller manager's own credentials (rate-limited: --kube-api-qps/-burst). */
  client: Client;
  /** One informer per resource, shared by every controller; the manager starts it after all controllers asked for theirs. */
  informers: SharedInformerFactory;
  /** The platform domain: group names, finalizers, annotation keys derive from it. */
  domain: ApiDomain;
  logger: Logger;
  /** Aborted when the manager shuts down (or loses its lease): controllers stop their workers. */
  signal: AbortSignal;
  /** The `--concurrent-<name>-syncs` values by upstream's flag stem (e.g. `namespace`, `gc`), with upstream's defaults. */
  concurrency(stem: string): number;
  /** PEM of the API server's serving CA (--root-ca-file, else the kubeconfig's), published in every namespace. */
  rootCA?: string;
}

/** A controller, registered under its upstream name (`namespace`, `garbagecollector`, ...). */
export interface Controller {
  readonly name: string;
  /**
   * Asks the informers it needs, then runs its workers until `ctx.signal` aborts. Resolves once
   * it has stopped; the manager waits for the informers to sync before work is processed.
   */
  run(ctx: ControllerContext): Promise<void>;
}

/** Makes a controller; the manager calls it only for enabled controllers. */
export type ControllerFactory = () => Controller;
