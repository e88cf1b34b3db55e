// Upstream's autoregister controller: a local APIService for every group version this server serves
// itself, so `kubectl get apiservices` lists them as upstream's does. The built-in ones are made at
// start and labelled `kube-aggregator.<key domain>/automanaged: onstart` (stale ones of an earlier
// start go); those of custom resources follow the scheme and are labelled `true`. Written by one
// thread only; APIServices someone else made are never touched.
import { isDeepStrictEqual } from 'node:util';
import type { APIService } from '../../api/apiregistration/v1/api-service.js';
import type { ApiDomain } from '../../api/domain.js';
import type { GroupVersionPriority } from '../../api/group-priorities.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../registry/generic/store.js';
import type { StoredObject } from '../storage/interface.js';

/** The label key upstream spells `kube-aggregator.kubernetes.io/automanaged`. */
export const automanagedLabel = (d: ApiDomain): string => d.key('automanaged', 'kube-aggregator');

export interface LocalGroupVersion {
  group: string;
  version: string;
  priority: GroupVersionPriority;
}

export type Automanaged = 'onstart' | 'true';

/** The local APIService of a group version. */
export function localAPIService(gv: LocalGroupVersion, label: string, mode: Automanaged): APIService {
  return {
    metadata: { name: `${gv.version}.${gv.group}`, labels: { [label]: mode } },
    spec: { group: gv.group, version: gv.version, groupPriorityMinimum: gv.priority.group, versionPriority: gv.priority.version },
  };
}

export class Autoregister {
  private readonly label: string;

  constructor(private readonly store: Store, domain: ApiDomain, private readonly logger: Logger) {
    this.label = automanagedLabel(domain);
  }

  /**
   * Makes the APIServices labelled `mode` exactly `wanted`: each created or its spec put right,
   * and those of that label no longer wanted deleted.
   */
  async reconcile(wanted: readonly LocalGroupVersion[], mode: Automanaged): Promise<void> {
    const desired = new Map(wanted.map((gv) => {
      const s = localAPIService(gv, this.label, mode);
      return [s.metadata!.name!, s] as const;
    }));
    const existing = (await this.store.list('', {})).items as unknown as APIService[];
    const byName = new Map(existing.map((s) => [s.metadata?.name ?? '', s]));
    for (const [name, s] of desired) {
      const have = byName.get(name);
      if (!have) {
        await this.ignoring(409, () => this.store.create('', s as unknown as StoredObject));
        continue;
      }
      // Someone else's APIService of the same name (an extension server taking over the group version) stays.
      if (have.metadata?.labels?.[this.label] !== mode) continue;
      if (isDeepStrictEqual(have.spec, s.spec)) continue;
      await this.ignoring(404, () => this.store.mutate('', name, (cur) => ({ ...cur, spec: s.spec } as StoredObject)));
    }
    for (const s of existing) {
      const name = s.metadata?.name ?? '';
      if (s.metadata?.labels?.[this.label] === mode && !desired.has(name)) {
        this.logger.info('deleting an APIService no longer served', { apiService: name });
        await this.ignoring(404, () => this.store.delete('', name));
      }
    }
  }

  private async ignoring(code: number, write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (e) {
      if ((e as { code?: number }).code !== code) throw e;
    }
  }
}
