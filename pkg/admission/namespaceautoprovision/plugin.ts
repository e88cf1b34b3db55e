// NamespaceAutoProvision (upstream plugin/pkg/admission/namespace/autoprovision, 1.30): creating
// something in a namespace that does not exist creates the namespace first, for clusters that do
// not want namespaces declared before use. Only creates; a dry run creates nothing.
import { isStatusError } from '../../runtime/errors.js';
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type Attributes, type MutationInterface, type ObjectLister, type PluginDeps } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'NamespaceAutoProvision';

type CreateFunc = NonNullable<PluginDeps['create']>;

export class NamespaceAutoProvision implements MutationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE');

  constructor(private readonly namespaces: ObjectLister, private readonly create: CreateFunc) {}

  async admit(attrs: Attributes): Promise<void> {
    if (attrs.dryRun) return;
    if (!attrs.namespace || (attrs.kind.group === '' && attrs.kind.kind === 'Namespace')) return;
    if (this.namespaces.get('', attrs.namespace)) return;
    try {
      await this.create('', 'namespaces', '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: attrs.namespace } });
    } catch (e) {
      // Another request made it first: what this one needs is there.
      if (isStatusError(e) && e.reason === 'AlreadyExists') return;
      throw newAdmissionForbidden(attrs, e instanceof Error ? e : String(e));
    }
  }
}

/** Makes the plug-in over the server's namespace cache, creating namespaces as the server; it takes no configuration. */
export const namespaceAutoProvisionFactory: PluginFactory = (_configuration, deps) => {
  const namespaces = deps.lister('', 'namespaces');
  if (!namespaces) throw new Error('missing namespaceLister');
  if (!deps.create) throw new Error('missing client');
  return new NamespaceAutoProvision(namespaces, deps.create);
};
