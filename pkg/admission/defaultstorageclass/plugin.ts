// DefaultStorageClass (upstream plugin/pkg/admission/storage/storageclass/setdefault, 1.30): a new
// claim that names no class gets the default StorageClass, the one annotated
// `storageclass.<keyDomain>/is-default-class: "true"` (or the beta annotation). Since 1.26
// several defaults are no error: the newest (by creationTimestamp, then name) wins.
import { className, newestDefaultClass } from '../default-class.js';
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type AdmissionObject, type Attributes, type MutationInterface, type ObjectLister, type PluginDeps } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'DefaultStorageClass';

type ClaimLike = { metadata?: { annotations?: Record<string, string> }; spec?: { storageClassName?: string | null } };

export class DefaultStorageClass implements MutationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE');
  private readonly defaultAnnotations: readonly string[];
  /** The class annotation claims used before spec.storageClassName; present (even empty), it names the class. */
  private readonly betaClassAnnotation: string;

  constructor(private readonly classes: ObjectLister, deps: PluginDeps) {
    this.defaultAnnotations = [deps.domain.key('is-default-class', 'storageclass'), deps.domain.key('is-default-class', 'storageclass.beta')];
    this.betaClassAnnotation = deps.domain.key('storage-class', 'volume.beta');
  }

  admit(attrs: Attributes): void {
    if (attrs.resource.group !== '' || attrs.resource.resource !== 'persistentvolumeclaims' || attrs.subresource !== '') return;
    const claim = attrs.object as ClaimLike | undefined;
    if (typeof claim !== 'object' || claim === null) return;
    if (this.hasClass(claim)) return;
    let def: AdmissionObject | undefined;
    try {
      def = this.defaultClass();
    } catch (e) {
      throw newAdmissionForbidden(attrs, e instanceof Error ? e : String(e));
    }
    const name = def && className(def);
    if (!name) return;
    claim.spec ??= {};
    claim.spec.storageClassName = name;
  }

  /** Whether the claim asked for a class: an empty name asks for none, which is a choice too. */
  private hasClass(claim: ClaimLike): boolean {
    const ann = claim.metadata?.annotations;
    if (ann && Object.hasOwn(ann, this.betaClassAnnotation)) return true;
    const name = claim.spec?.storageClassName;
    return name !== undefined && name !== null;
  }

  /** The default class: of those annotated as default, the newest, then the first by name. */
  defaultClass(): AdmissionObject | undefined {
    return newestDefaultClass(this.classes.list(), this.defaultAnnotations);
  }
}

/** Makes the plug-in over the server's StorageClass cache; it takes no configuration. */
export const defaultStorageClassFactory: PluginFactory = (_configuration, deps) => {
  const classes = deps.lister(deps.domain.group('storage'), 'storageclasses');
  if (!classes) throw new Error('missing lister');
  return new DefaultStorageClass(classes, deps);
};
