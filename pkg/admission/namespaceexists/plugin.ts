// NamespaceExists (upstream plugin/pkg/admission/namespace/exists, 1.30): anything in a namespace
// that does not exist is refused with the namespace's NotFound, creates, updates and deletes alike
// (NamespaceLifecycle, on by default, checks creates and updates only). A namespace the cache does
// not know yet is read live before the refusal.
import { isStatusError, newInternalError, newNotFound } from '../../runtime/errors.js';
import { handlesOperations, type AdmissionObject, type Attributes, type ObjectLister, type ValidationInterface } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'NamespaceExists';

export class NamespaceExists implements ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE', 'UPDATE', 'DELETE');

  constructor(private readonly namespaces: ObjectLister) {}

  async validate(attrs: Attributes): Promise<void> {
    if (!attrs.namespace || (attrs.kind.group === '' && attrs.kind.kind === 'Namespace')) return;
    if (this.namespaces.get('', attrs.namespace)) return;
    let live: AdmissionObject | undefined;
    try {
      live = await this.namespaces.fetch('', attrs.namespace);
    } catch (e) {
      throw isStatusError(e) && e.code === 404 ? e : newInternalError(e);
    }
    if (!live) throw newNotFound({ group: '', resource: 'namespaces' }, attrs.namespace);
  }
}

/** Makes the plug-in over the server's namespace cache; it takes no configuration. */
export const namespaceExistsFactory: PluginFactory = (_configuration, deps) => {
  const namespaces = deps.lister('', 'namespaces');
  if (!namespaces) throw new Error('missing namespaceLister');
  return new NamespaceExists(namespaces);
};
