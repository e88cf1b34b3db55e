// AlwaysPullImages (upstream plugin/pkg/admission/alwayspullimages, 1.30): every container of a
// pod (init, regular and ephemeral) pulls its image on every start, so a pod can run a private
// image only with credentials to pull it, not because a node already has it. Creates and updates
// that bring a new image get imagePullPolicy Always, and the validating phase refuses any container
// left otherwise (a later plug-in or webhook that changed it). An update bringing no new image (a
// label change of a pod created before the plug-in was on) is left alone.
import { newBadRequest, StatusError } from '../../runtime/errors.js';
import { errorMessage, notSupported, Path } from '../../runtime/field-errors.js';
import { aggregateMessage, newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type AdmissionObject, type Attributes, type MutationInterface, type ValidationInterface } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'AlwaysPullImages';

interface ContainerLike {
  image?: string;
  imagePullPolicy?: string;
}

/** Every container of the pod with its field path, in upstream's VisitContainersWithPath order. */
function containersWithPath(pod: AdmissionObject): [ContainerLike, Path][] {
  const spec = pod['spec'];
  if (typeof spec !== 'object' || spec === null) return [];
  const out: [ContainerLike, Path][] = [];
  for (const kind of ['initContainers', 'containers', 'ephemeralContainers']) {
    const list = (spec as Record<string, unknown>)[kind];
    if (!Array.isArray(list)) continue;
    list.forEach((c: unknown, i) => {
      if (typeof c === 'object' && c !== null) out.push([c as ContainerLike, Path.root('spec').child(kind).index(i)]);
    });
  }
  return out;
}

const asPod = (o: AdmissionObject | undefined): AdmissionObject => {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw newBadRequest('Resource was marked with kind Pod but was unable to be converted');
  return o;
};

export class AlwaysPullImages implements MutationInterface, ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE', 'UPDATE');

  admit(attrs: Attributes): void {
    if (this.ignores(attrs)) return;
    for (const [c] of containersWithPath(asPod(attrs.object))) c.imagePullPolicy = 'Always';
  }

  validate(attrs: Attributes): void {
    if (this.ignores(attrs)) return;
    const errs = containersWithPath(asPod(attrs.object))
      .filter(([c]) => c.imagePullPolicy !== 'Always')
      .map(([c, p]) => newAdmissionForbidden(attrs, errorMessage(notSupported(p.child('imagePullPolicy'), c.imagePullPolicy ?? '', ['Always']))));
    if (errs.length === 1) throw errs[0]!;
    // Upstream aggregates one Forbidden per container (which its handler answers with a 500); one
    // 403 carrying every message keeps the refusal a refusal.
    if (errs.length > 1) throw new StatusError(403, 'Forbidden', aggregateMessage(errs), errs[0]!.status.details);
  }

  /** Sub-resources, other resources, and updates that bring no image the pod did not already run. */
  private ignores(attrs: Attributes): boolean {
    if (attrs.subresource !== '' || attrs.resource.group !== '' || attrs.resource.resource !== 'pods') return true;
    return attrs.operation === 'UPDATE' && !hasNewImage(attrs.object, attrs.oldObject);
  }
}

function hasNewImage(pod: AdmissionObject | undefined, old: AdmissionObject | undefined): boolean {
  // Upstream treats an object it cannot read as bringing new images, so the checks run.
  if (typeof pod !== 'object' || pod === null || typeof old !== 'object' || old === null) return true;
  const oldImages = new Set(containersWithPath(old).map(([c]) => c.image ?? ''));
  return containersWithPath(pod).some(([c]) => !oldImages.has(c.image ?? ''));
}

/** Makes the plug-in; it takes no configuration. */
export const alwaysPullImagesFactory: PluginFactory = () => new AlwaysPullImages();
