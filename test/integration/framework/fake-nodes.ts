// Plays the node agents of tests that need Nodes (nothing runs pods here): each registers its Node
// with a Ready status, as a kubelet does, then renews its Lease in the node lease namespace every
// beat and, when it finds its Ready condition not True (the node lifecycle controller made it
// Unknown while the agent was silent), reports Ready again. A test silences an agent to play a
// dead machine and lets it speak again to play its return. Also plays the scheduler for daemon
// pods: binds each to the node its required node affinity names.
import { defaultApiDomain, type ApiDomain } from '../../../api/domain.js';
import { isConflict, isNotFound, type Client, type KubeObject } from '../../../pkg/client/index.js';
import { NodeLeaseNamespace } from '../../../pkg/runtime/node-identity.js';

interface Condition { type: string; status: string; reason?: string; message?: string; lastHeartbeatTime?: string; lastTransitionTime?: string }
export interface FakeNode extends KubeObject {
  spec?: { taints?: { key: string; value?: string; effect: string; timeAdded?: string }[]; unschedulable?: boolean };
  status?: { conditions?: Condition[] };
}
interface Lease extends KubeObject { spec?: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string } }
interface BindablePod extends KubeObject {
  spec?: { nodeName?: string; affinity?: { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: { matchFields?: { key: string; operator: string; values?: string[] }[] }[] } } } };
}

const second = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const micro = () => new Date().toISOString().replace(/Z$/, '000Z');

function readyStatus(): NonNullable<FakeNode['status']> {
  const now = second();
  const c = (type: string, status: string, reason: string, message: string): Condition => ({ type, status, reason, message, lastHeartbeatTime: now, lastTransitionTime: now });
  return {
    conditions: [
      c('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
      c('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
      c('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
      c('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
    ],
  };
}

export class FakeNodes {
  private readonly beating = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  /** The beat in progress: a slow one is not joined by the next (a kubelet's loop waits for itself too). */
  private beat: Promise<void> | undefined;

  constructor(private readonly client: Client, private readonly beatMs = 300, private readonly domain: ApiDomain = defaultApiDomain) {}

  private nodes() {
    return this.client.resource<FakeNode>('', 'v1', 'nodes');
  }

  private leases() {
    return this.client.resource<Lease>(this.domain.group('coordination'), 'v1', 'leases').namespace(NodeLeaseNamespace);
  }

  /** Registers a Ready node (with labels and taints of its own) and starts its heartbeat. */
  async register(name: string, labels: Record<string, string> = {}, taints: NonNullable<FakeNode['spec']>['taints'] = []): Promise<FakeNode> {
    const node = await this.nodes().create({ metadata: { name, labels }, spec: taints.length ? { taints } : {}, status: readyStatus() } as FakeNode);
    await this.leases().create({
      metadata: { name, namespace: NodeLeaseNamespace, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata.uid! }] },
      spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: micro() },
    } as Lease);
    this.resume(name);
    return node;
  }

  /** The agent goes silent: no more Lease renewals or status reports. */
  silence(name: string): void {
    this.beating.delete(name);
  }

  /** The agent speaks again (from the next beat on). */
  resume(name: string): void {
    this.beating.add(name);
    this.timer ??= setInterval(() => {
      this.beat ??= this.heartbeat().finally(() => (this.beat = undefined));
    }, this.beatMs);
  }

  /** Binds each unbound pod of `namespace` to the node its required node affinity names, as the scheduler would; answers how many. */
  async bindPods(namespace: string): Promise<number> {
    const pods = await this.client.resource<BindablePod>('', 'v1', 'pods').namespace(namespace).list();
    let bound = 0;
    for (const p of pods.items) {
      if (p.spec?.nodeName || p.metadata.deletionTimestamp) continue;
      const terms = p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
      const node = terms.flatMap((t) => t.matchFields ?? []).find((f) => f.key === 'metadata.name' && f.operator === 'In')?.values?.[0];
      if (!node) continue;
      try {
        await this.client.request('POST', `/api/v1/namespaces/${namespace}/pods/${p.metadata.name}/binding`, {
          apiVersion: 'v1', kind: 'Binding', metadata: { name: p.metadata.name!, uid: p.metadata.uid! }, target: { kind: 'Node', name: node },
        });
        bound++;
      } catch (e) {
        if (!isNotFound(e) && !isConflict(e)) throw e;
      }
    }
    return bound;
  }

  private async heartbeat(): Promise<void> {
    for (const name of [...this.beating]) {
      try {
        const lease = await this.leases().get(name);
        await this.leases().update({ ...lease, spec: { ...lease.spec, renewTime: micro() } });
        const node = await this.nodes().get(name);
        const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
        if (ready?.status !== 'True') await this.nodes().updateStatus({ ...node, status: { ...node.status, ...readyStatus() } });
      } catch {
        // Changed or deleted meanwhile: the next beat tries again (a deleted node's agent is silenced by the test).
      }
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.beating.clear();
    await this.beat;
  }
}
