// How many pods a budget expects when it is given as a percentage or as maxUnavailable (upstream's
// getExpectedScale): the sum of the `scale` sub-resources of the selected pods' controllers, each
// counted once. A ReplicaSet run by a Deployment counts as its Deployment, as upstream's finders do.
import { isNotFound, type Client, type KubeObject } from '../../client/index.js';
import type { PodLike } from './budget-status.js';

type Ref = NonNullable<PodLike['metadata']['ownerReferences']>[number];

interface Scale {
  metadata?: { uid?: string };
  spec?: { replicas?: number };
}

const controllerOf = (o: { metadata: { ownerReferences?: Ref[] } }): Ref | undefined => o.metadata.ownerReferences?.find((r) => r.controller === true);
const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');
const versionOf = (apiVersion: string) => apiVersion.slice(apiVersion.indexOf('/') + 1);

export class ScaleFinder {
  constructor(private readonly client: Client) {}

  /** The plural of `kind` in `apiVersion` with a scale sub-resource, from discovery. */
  private async scalable(apiVersion: string, kind: string): Promise<string | undefined> {
    const resources = await this.client.discovery.resourcesFor(groupOf(apiVersion), versionOf(apiVersion)).catch((e: unknown) => {
      if (isNotFound(e)) return [];
      throw e;
    });
    const top = resources.find((r) => r.kind === kind && !r.name.includes('/'));
    return top && resources.some((r) => r.name === `${top.name}/scale`) ? top.name : undefined;
  }

  private async get<T>(fn: () => Promise<T>): Promise<T | undefined> {
    try {
      return await fn();
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  /** The controller's uid and desired replicas, or undefined when no such controller (with that uid) exists. */
  async find(ref: Ref, namespace: string): Promise<{ uid: string; replicas: number } | undefined> {
    if (ref.kind === 'ReplicaSet' && groupOf(ref.apiVersion) === 'apps') {
      const rs = await this.get(() => this.client.resource('apps', versionOf(ref.apiVersion), 'replicasets').namespace(namespace).get(ref.name));
      if (!rs || rs.metadata.uid !== ref.uid) return undefined;
      const owner = controllerOf(rs as KubeObject & { metadata: { ownerReferences?: Ref[] } });
      if (owner?.kind === 'Deployment') return this.find(owner, namespace);
    }
    const resource = await this.scalable(ref.apiVersion, ref.kind);
    if (!resource) return undefined;
    const scale = await this.get(() => this.client.resource(groupOf(ref.apiVersion), versionOf(ref.apiVersion), resource).namespace(namespace).getSubresource<Scale>(ref.name, 'scale'));
    if (!scale || (scale.metadata?.uid && scale.metadata.uid !== ref.uid)) return undefined;
    return { uid: ref.uid, replicas: scale.spec?.replicas ?? 0 };
  }

  /** The expected pod count, and the pods without a controller (which cannot be counted). */
  async expectedScale(pods: PodLike[], namespace: string): Promise<{ expected: number; unmanaged: string[] }> {
    const scales = new Map<string, number>();
    const unmanaged: string[] = [];
    for (const pod of pods) {
      const ref = controllerOf(pod);
      if (!ref) {
        unmanaged.push(pod.metadata.name ?? '');
        continue;
      }
      if (scales.has(ref.uid)) continue;
      const found = await this.find(ref, namespace);
      if (!found) throw new Error(`found no controllers for pod "${pod.metadata.name ?? ''}"`);
      scales.set(found.uid, found.replicas);
    }
    let expected = 0;
    for (const n of scales.values()) expected += n;
    return { expected, unmanaged };
  }
}
