// The clusterrole-aggregation controller (upstream's ClusterRoleAggregationController): a
// ClusterRole with an aggregationRule holds the union of the rules of the ClusterRoles its
// selectors pick, kept in step as any ClusterRole comes, goes or changes. The rules are written by
// server-side apply under upstream's field manager, forced: the controller owns that list.
import type { ClusterRole } from '../../../api/rbac/v1/cluster-role.js';
import { rbacGroup } from '../../../api/rbac/v1/register.js';
import { RateLimitingQueue, isNotFound, type KubeObject } from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { runWorkers, waitForCaches } from '../queue-workers.js';
import { aggregatedRules, sameRules } from './aggregated-rules.js';

type Role = ClusterRole & KubeObject;

export const fieldManager = 'clusterrole-aggregation-controller';
/** Upstream starts the controller with 5 workers (it has no --concurrent-*-syncs flag). */
const workers = 5;

class ClusterRoleAggregationController implements Controller {
  readonly name = 'clusterrole-aggregation';

  async run(ctx: ControllerContext): Promise<void> {
    const { logger, signal } = ctx;
    const group = rbacGroup(ctx.domain);
    const queue = new RateLimitingQueue<string>();
    const roles = ctx.informers.forResource<Role>(group, 'v1', 'clusterroles');
    const client = ctx.client.resource<Role>(group, 'v1', 'clusterroles');
    // Any change to any role may change what a selector picks: look at every aggregated role again.
    const enqueueAll = () => {
      for (const r of roles.indexer.list()) if (r.aggregationRule) queue.add(r.metadata.name!);
    };
    const remove = roles.addEventHandler({ onAdd: enqueueAll, onUpdate: enqueueAll, onDelete: enqueueAll });
    try {
      if (!(await waitForCaches(signal, [roles]))) return;
      logger.info('Starting ClusterRoleAggregator controller', { workers });
      await runWorkers(this.name, queue, workers, signal, async (name) => {
        const role = roles.indexer.get('', name);
        if (!role) return;
        const rules = aggregatedRules(role, roles.indexer.list());
        if (!rules || sameRules(rules, role.rules)) return;
        try {
          await client.apply({
            apiVersion: `${group}/v1`, kind: 'ClusterRole', metadata: { name }, rules,
          } as Role, { fieldManager, force: true });
        } catch (e) {
          if (isNotFound(e)) return;
          throw e;
        }
        logger.info('updated the rules of an aggregated ClusterRole', { clusterRole: name, rules: rules.length, before: role.rules?.length ?? 0 });
      }, logger);
    } finally {
      remove();
      queue.shutDown();
    }
  }
}

export const clusterroleAggregationController: ControllerFactory = () => new ClusterRoleAggregationController();
