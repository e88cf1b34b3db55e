// StorageObjectInUseProtection (upstream plugin/pkg/admission/storage/storageobjectinuseprotection):
// every new claim gets the pvc-protection finalizer and every new volume the pv-protection one, so
// deleting a claim a pod uses, or a volume a claim is bound to, waits until the protection
// controllers see them unused and remove the finalizer.
import { handlesOperations, type Attributes, type MutationInterface, type PluginDeps } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'StorageObjectInUseProtection';

export class StorageObjectInUseProtection implements MutationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE');
  private readonly finalizers: Readonly<Record<string, string>>;

  constructor(deps: PluginDeps) {
    this.finalizers = {
      persistentvolumeclaims: deps.domain.key('pvc-protection'),
      persistentvolumes: deps.domain.key('pv-protection'),
    };
  }

  admit(attrs: Attributes): void {
    if (attrs.resource.group !== '' || attrs.subresource !== '') return;
    const finalizer = Object.hasOwn(this.finalizers, attrs.resource.resource) ? this.finalizers[attrs.resource.resource] : undefined;
    const obj = attrs.object;
    if (!finalizer || typeof obj !== 'object' || obj === null) return;
    const meta = (obj['metadata'] ??= {}) as { finalizers?: string[] };
    const finalizers = meta.finalizers ?? [];
    if (finalizers.includes(finalizer)) return;
    meta.finalizers = [...finalizers, finalizer];
  }
}

export const storageObjectInUseProtectionFactory: PluginFactory = (_configuration, deps) => new StorageObjectInUseProtection(deps);
