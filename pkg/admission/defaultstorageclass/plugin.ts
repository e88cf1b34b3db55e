// DefaultStorageClass (upstream plugin/pkg/admission/storage/storageclass/setdefault, 1.30): a new
// claim that names no class gets the default StorageClass, the one annotated
// `storageclass.<keyDomain>/is-default-class: "true"` (or the beta annotation). Since 1.26
// several defaults are no error: the newest (by creationTimestamp, then name) wins.
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type AdmissionObject, type Attributes, type MutationInterface, type ObjectLister, type PluginDeps } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'DefaultStorageClass';

interface Meta {
  name?: string;
  annotations?: Record<string, string>;
  creationTimestamp?: string;
}
type ClaimLike = { metadata?: Meta; spec?: { storageClassName?: string | null } };

const metaOf = (o: AdmissionObject): Meta => (typeof o['metadata'] === 'object' && o['metadata'] !== null ? o['metadata'] as Meta : {});

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
    const name = def && metaOf(def).name;
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
    const defaults = this.classes.list().filter((c) => {
      const ann = metaOf(c).annotations ?? {};
      return this.defaultAnnotations.some((k) => ann[k] === 'true');
    });
    const created = (c: AdmissionObject) => {
      const t = Date.parse(metaOf(c).creationTimestamp ?? '');
      return Number.isNaN(t) ? 0 : t;
    };
    defaults.sort((a, b) => {
      const ta = created(a);
      const tb = created(b);
      if (ta !== tb) return tb - ta;
      const na = metaOf(a).name ?? '';
      const nb = metaOf(b).name ?? '';
      return na < nb ? -1 : na > nb ? 1 : 0;
    });
    return defaults[0];
  }
}

/** Makes the plug-in over the server's StorageClass cache; it takes no configuration. */
export const defaultStorageClassFactory: PluginFactory = (_configuration, deps) => {
  const classes = deps.lister(deps.domain.group('storage'), 'storageclasses');
  if (!classes) throw new Error('missing lister');
  return new DefaultStorageClass(classes, deps);
};
