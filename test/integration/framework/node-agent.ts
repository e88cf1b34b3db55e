// Plays the node agent for tests that need pods to become Ready (nothing runs pods here): an
// informer over every pod, and each live pod of a namespace the test lets in is reported Running
// and Ready through its status sub-resource, as a kubelet reports a started container.
import { Client, SharedInformerFactory, type KubeObject } from '../../../pkg/client/index.js';
import type { Kubeconfig } from './kubeconfig.js';

interface Pod extends KubeObject {
  status?: { phase?: string; conditions?: { type: string; status: string }[] };
}

const isReady = (p: Pod) => (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

export class FakeNodeAgent {
  private readonly client: Client;
  private readonly informers: SharedInformerFactory;
  private readonly namespaces = new Set<string>();

  constructor(kc: Kubeconfig, domain?: string) {
    this.client = Client.fromKubeconfig(kc.path, domain ? { domain } : {}).client;
    this.informers = new SharedInformerFactory(this.client);
    const pods = this.informers.forResource<Pod>('', 'v1', 'pods');
    pods.addEventHandler({ onAdd: (p) => void this.report(p), onUpdate: (_, p) => void this.report(p) });
    this.informers.start();
  }

  /** From now on the pods of `namespace` become Ready, those already there included. */
  serve(namespace: string): void {
    this.namespaces.add(namespace);
    const pods = this.informers.forResource<Pod>('', 'v1', 'pods');
    for (const p of pods.indexer.list()) void this.report(p);
  }

  private async report(p: Pod): Promise<void> {
    const ns = p.metadata.namespace ?? '';
    if (!this.namespaces.has(ns) || p.metadata.deletionTimestamp || isReady(p)) return;
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    try {
      await this.client.resource<Pod>('', 'v1', 'pods').namespace(ns).updateStatus({
        ...p,
        status: { ...p.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now } as { type: string; status: string }] },
      });
    } catch {
      // Changed or deleted meanwhile: the informer brings the newer pod and it is reported then.
    }
  }

  async stop(): Promise<void> {
    await this.informers.shutdown();
    this.client.close();
  }
}
