// The ttl controller (upstream's pkg/controller/ttl): annotates every Node with
// node.alpha.<domain>/ttl, the seconds its node agent may cache Secrets and ConfigMaps before
// asking again, from the cluster's size: 0 up to 100 nodes, then 15, 30, 60 and 300 s. Every node
// change looks at the node again, so a new size reaches each node with its next status report.
import type { Node } from '../../../api/core/v1/node.js';
import { RateLimitingQueue, objectKey, type KubeObject } from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { runWorkers, waitForCaches } from '../queue-workers.js';
import { ClusterSize } from './cluster-size.js';

type NodeObject = Node & KubeObject;

/** Upstream runs five workers and has no flag for it. */
const workers = 5;

class TTLController implements Controller {
  readonly name = 'ttl';

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal, domain } = ctx;
    const annotation = domain.key('ttl', 'node.alpha');
    const nodes = informers.forResource<NodeObject>('', 'v1', 'nodes');
    const nodeClient = client.resource<NodeObject>('', 'v1', 'nodes');
    const queue = new RateLimitingQueue<string>();
    const size = new ClusterSize();

    const remove = nodes.addEventHandler({
      onAdd: (n) => {
        size.added();
        queue.add(objectKey(n));
      },
      // Every update, as upstream: a node reports its status often, so a new size reaches it soon.
      onUpdate: (_old, n) => queue.add(objectKey(n)),
      onDelete: () => size.removed(),
    });

    const sync = async (key: string): Promise<void> => {
      const node = nodes.indexer.getByKey(key);
      if (!node) return;
      const want = size.ttlSeconds;
      const current = node.metadata.annotations?.[annotation];
      if (current !== undefined && /^[+-]?\d+$/.test(current) && Number(current) === want) return;
      await nodeClient.patch(key, 'strategic', { metadata: { annotations: { [annotation]: String(want) } } });
      logger.v(2).info('Changed ttl annotation', { node: key, TTL: `${want}s` });
    };

    try {
      if (!(await waitForCaches(signal, [nodes]))) return;
      logger.info('Starting controller', { controller: 'ttl-controller' });
      await runWorkers(this.name, queue, workers, signal, sync, logger);
    } finally {
      remove();
      queue.shutDown();
    }
  }
}

export const ttlController: ControllerFactory = () => new TTLController();
