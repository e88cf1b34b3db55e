// The serviceaccount controller (upstream's ServiceAccountsController): every active namespace
// has a `default` ServiceAccount, made when the namespace appears and again whenever it is deleted.
import { isAlreadyExists, isForbidden, isNotFound, type StatusError } from '../../client/errors.js';
import { RateLimitingQueue } from '../../client/rate-limiting-queue.js';
import type { KubeObject } from '../../client/resource-client.js';
import { deletedObject } from '../../client/shared-informer.js';
import type { Controller, ControllerContext } from '../controller.js';
import { runWorkers, waitForCaches } from '../queue-workers.js';

/** The accounts every namespace gets (upstream's DefaultServiceAccountsControllerOptions). */
export const defaultServiceAccounts = ['default'];

/** A create refused because the namespace is being deleted: nothing to retry. */
export function isNamespaceTerminating(e: unknown): boolean {
  return isForbidden(e) && ((e as StatusError).status?.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
}

export class ServiceAccountsController implements Controller {
  readonly name = 'serviceaccount';

  async run(ctx: ControllerContext): Promise<void> {
    const queue = new RateLimitingQueue<string>();
    const namespaces = ctx.informers.forResource('', 'v1', 'namespaces');
    const accounts = ctx.informers.forResource('', 'v1', 'serviceaccounts');
    const removers = [
      namespaces.addEventHandler({ onAdd: (ns) => queue.add(ns.metadata.name!), onUpdate: (_o, ns) => queue.add(ns.metadata.name!) }),
      // Only the deletion of an account we keep matters: it is made again.
      accounts.addEventHandler({
        onDelete: (o) => {
          const sa = deletedObject(o);
          if (defaultServiceAccounts.includes(sa.metadata.name!)) queue.add(sa.metadata.namespace!);
        },
      }),
    ];
    try {
      if (!(await waitForCaches(ctx.signal, [namespaces, accounts]))) return;
      ctx.logger.info('starting the serviceaccount controller', { workers: 1 });
      await runWorkers(this.name, queue, 1, ctx.signal, async (name) => {
        const ns = namespaces.indexer.get('', name) as (KubeObject & { status?: { phase?: string } }) | undefined;
        // Nothing is made in a namespace that is gone or going.
        if (!ns || ns.metadata.deletionTimestamp || (ns.status?.phase && ns.status.phase !== 'Active')) return;
        for (const sa of defaultServiceAccounts) {
          if (accounts.indexer.get(name, sa)) continue;
          try {
            await ctx.client.resource('', 'v1', 'serviceaccounts').namespace(name).create({ metadata: { name: sa } });
            ctx.logger.info('created a service account', { namespace: name, serviceAccount: sa });
          } catch (e) {
            if (isAlreadyExists(e) || isNotFound(e) || isNamespaceTerminating(e)) continue;
            throw e;
          }
        }
      }, ctx.logger);
    } finally {
      for (const r of removers) r();
      queue.shutDown();
    }
  }
}
