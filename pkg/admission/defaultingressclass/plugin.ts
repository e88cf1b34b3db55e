// DefaultIngressClass (upstream plugin/pkg/admission/network/defaultingressclass, 1.30): a new
// Ingress that names no class, neither in spec.ingressClassName nor in the older
// `<keyDomain>/ingress.class` annotation, gets the default IngressClass, the one annotated
// `ingressclass.<keyDomain>/is-default-class: "true"`. Since 1.25 several defaults are no error:
// the newest (by creationTimestamp, then name) wins. Updates are left alone.
import { className, newestDefaultClass } from '../default-class.js';
import { handlesOperations, type Attributes, type MutationInterface, type ObjectLister, type PluginDeps } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'DefaultIngressClass';

type IngressLike = { metadata?: { annotations?: Record<string, string> }; spec?: { ingressClassName?: string | null } };

export class DefaultIngressClass implements MutationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE');
  private readonly group: string;
  private readonly defaultAnnotation: string;
  /** The class annotation ingresses used before spec.ingressClassName; present (even empty), it names the class. */
  private readonly classAnnotation: string;

  constructor(private readonly classes: ObjectLister, deps: PluginDeps) {
    this.group = deps.domain.group('networking');
    this.defaultAnnotation = deps.domain.key('is-default-class', 'ingressclass');
    this.classAnnotation = deps.domain.key('ingress.class');
  }

  admit(attrs: Attributes): void {
    if (attrs.resource.group !== this.group || attrs.resource.resource !== 'ingresses' || attrs.subresource !== '') return;
    const ingress = attrs.object as IngressLike | undefined;
    if (typeof ingress !== 'object' || ingress === null) return;
    const named = ingress.spec?.ingressClassName;
    if (named !== undefined && named !== null) return;
    const ann = ingress.metadata?.annotations;
    if (ann && Object.hasOwn(ann, this.classAnnotation)) return;
    const def = newestDefaultClass(this.classes.list(), [this.defaultAnnotation]);
    if (!def) return;
    ingress.spec ??= {};
    ingress.spec.ingressClassName = className(def);
  }
}

/** Makes the plug-in over the server's IngressClass cache; it takes no configuration. */
export const defaultIngressClassFactory: PluginFactory = (_configuration, deps) => {
  const classes = deps.lister(deps.domain.group('networking'), 'ingressclasses');
  if (!classes) throw new Error('missing lister');
  return new DefaultIngressClass(classes, deps);
};
