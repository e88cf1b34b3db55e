// The root-ca-cert-publisher controller (upstream's publisher.go): every namespace holds the
// ConfigMap `kube-root-ca.crt` with the CA bundle (`ca.crt`) clients in pods verify the API server
// with; an edit or a deletion of it is undone.
import { isAlreadyExists, isNotFound } from '../../client/errors.js';
import { RateLimitingQueue } from '../../client/rate-limiting-queue.js';
import type { KubeObject } from '../../client/resource-client.js';
import { deletedObject } from '../../client/shared-informer.js';
import type { Controller, ControllerContext } from '../controller.js';
import { runWorkers, waitForCaches } from '../queue-workers.js';
import { isNamespaceTerminating } from '../serviceaccount/serviceaccounts-controller.js';

/** The ConfigMap's name, as upstream (clients look for it by this name). */
export const rootCACertConfigMapName = 'kube-root-ca.crt';
const description = 'Contains a CA bundle that can be used to verify the API server when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of clusters.';

interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

export class RootCACertPublisher implements Controller {
  readonly name = 'root-ca-cert-publisher';

  async run(ctx: ControllerContext): Promise<void> {
    const rootCA = ctx.rootCA;
    if (!rootCA) throw new Error('root-ca-cert-publisher: no root CA (give --root-ca-file, or a kubeconfig with a certificate authority)');
    const descriptionKey = ctx.domain.key('description');
    const queue = new RateLimitingQueue<string>();
    const namespaces = ctx.informers.forResource('', 'v1', 'namespaces');
    const configMaps = ctx.informers.forResource<ConfigMap>('', 'v1', 'configmaps');
    const ours = (cm: KubeObject) => cm.metadata.name === rootCACertConfigMapName;
    const removers = [
      namespaces.addEventHandler({ onAdd: (ns) => queue.add(ns.metadata.name!), onUpdate: (_o, ns) => queue.add(ns.metadata.name!) }),
      configMaps.addEventHandler({
        onUpdate: (_o, cm) => ours(cm) && queue.add(cm.metadata.namespace!),
        onDelete: (o) => {
          const cm = deletedObject(o);
          if (ours(cm)) queue.add(cm.metadata.namespace!);
        },
      }),
    ];
    const client = (ns: string) => ctx.client.resource<ConfigMap>('', 'v1', 'configmaps').namespace(ns);
    try {
      if (!(await waitForCaches(ctx.signal, [namespaces, configMaps]))) return;
      ctx.logger.info('starting the root CA certificate publisher', { configMap: rootCACertConfigMapName });
      await runWorkers(this.name, queue, 1, ctx.signal, async (ns) => {
        const namespace = namespaces.indexer.get('', ns);
        if (!namespace || namespace.metadata.deletionTimestamp) return;
        const cm = configMaps.indexer.get(ns, rootCACertConfigMapName);
        if (!cm) {
          try {
            await client(ns).create({ metadata: { name: rootCACertConfigMapName, annotations: { [descriptionKey]: description } }, data: { 'ca.crt': rootCA } });
            ctx.logger.v(1).info('published the root CA', { namespace: ns, configMap: rootCACertConfigMapName });
          } catch (e) {
            // A namespace gone or going needs no CA; one made meanwhile is checked on its own event.
            if (isNotFound(e) || isNamespaceTerminating(e) || isAlreadyExists(e)) return;
            throw e;
          }
          return;
        }
        const data = cm.data ?? {};
        if (Object.keys(data).length === 1 && data['ca.crt'] === rootCA && cm.metadata.annotations?.[descriptionKey] === description) return;
        // Only the data and our annotation are ours: other annotations and labels stay.
        await client(ns).update({ ...cm, data: { 'ca.crt': rootCA }, metadata: { ...cm.metadata, annotations: { ...(cm.metadata.annotations ?? {}), [descriptionKey]: description } } });
        ctx.logger.info('restored the root CA ConfigMap', { namespace: ns, configMap: rootCACertConfigMapName });
      }, ctx.logger);
    } finally {
      for (const r of removers) r();
      queue.shutDown();
    }
  }
}
