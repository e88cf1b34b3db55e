// The scale sub-resource of an autoscaler's target, found as upstream's controller finds it: the
// target's group from its apiVersion, every served resource of that group with the target's kind
// (from discovery, read again when the kind is not known), the first whose scale answers.
import type { Client } from '../../client/index.js';

/** An autoscaling/v1 Scale as the scale sub-resource answers it. */
export interface Scale {
  apiVersion?: string;
  kind?: string;
  metadata?: Record<string, unknown>;
  spec?: { replicas?: number };
  status?: { replicas?: number; selector?: string };
  [field: string]: unknown;
}

export interface ScaleResource {
  group: string;
  version: string;
  resource: string;
}

/** Upstream's schema.ParseGroupVersion: the group of an apiVersion; throws on more than one '/'. */
export function groupOf(apiVersion: string): string {
  const parts = apiVersion.split('/');
  if (apiVersion === '' || parts.length === 1) return '';
  if (parts.length === 2) return parts[0]!;
  throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

export class ScaleTargets {
  private readonly byGroupKind = new Map<string, ScaleResource[]>();

  constructor(private readonly client: Client) {}

  private async mappings(group: string, kind: string): Promise<ScaleResource[]> {
    const key = `${group}/${kind}`;
    const known = this.byGroupKind.get(key);
    if (known?.length) return known;
    const found: ScaleResource[] = [];
    const g = (await this.client.discovery.serverGroups()).find((x) => x.name === group);
    // The preferred version first, as a REST mapper orders them.
    for (const version of g ? [g.preferredVersion, ...g.versions.filter((v) => v !== g.preferredVersion)] : []) {
      const resources = await this.client.discovery.resourcesFor(group, version);
      for (const r of resources) {
        if (r.kind === kind && !r.name.includes('/') && resources.some((s) => s.name === `${r.name}/scale`)) found.push({ group, version, resource: r.name });
      }
    }
    this.byGroupKind.set(key, found);
    return found;
  }

  /** The target's Scale and the resource it was read from; throws upstream's errors when there is none. */
  async scaleOf(namespace: string, apiVersion: string, kind: string, name: string): Promise<{ scale: Scale; resource: ScaleResource }> {
    const group = groupOf(apiVersion);
    const mappings = await this.mappings(group, kind);
    if (mappings.length === 0) throw new Error(`no matches for kind ${JSON.stringify(kind)} in group ${JSON.stringify(group)}`);
    let first: unknown;
    for (const m of mappings) {
      try {
        const scale = await this.client.resource(m.group, m.version, m.resource).namespace(namespace).getSubresource<Scale>(name, 'scale');
        return { scale, resource: m };
      } catch (e) {
        first ??= e;
      }
    }
    throw first;
  }
}
