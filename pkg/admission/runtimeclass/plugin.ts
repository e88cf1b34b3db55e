// The RuntimeClass plug-in (upstream plugin/pkg/admission/runtimeclass): on pod create it looks up
// spec.runtimeClassName (cache, then a live read) and refuses an unknown class; mutating, it sets
// spec.overhead from the class's overhead.podFixed and merges the class's scheduling node selector
// and tolerations into the pod; validating, it refuses a pod whose overhead differs from the class's
// (or that sets one without a class defining one).
import { newBadRequest } from '../../runtime/errors.js';
import { compareQuantity, parseExact } from '../../runtime/quantity-exact.js';
import { newAdmissionForbidden } from '../errors.js';
import {
  handlesOperations, type Attributes, type MutationInterface, type ObjectLister, type PluginDeps, type ValidationInterface,
} from '../interfaces.js';
import type { PluginFactory } from '../registry.js';
import { mergeTolerations, type Toleration } from '../podutil/tolerations.js';

export const PluginName = 'RuntimeClass';

type ResourceList = Record<string, string | number>;

interface RuntimeClassLike {
  metadata?: { name?: string };
  overhead?: { podFixed?: ResourceList };
  scheduling?: { nodeSelector?: Record<string, string>; tolerations?: Toleration[] };
}

interface PodLike {
  spec?: {
    runtimeClassName?: string;
    overhead?: ResourceList;
    nodeSelector?: Record<string, string>;
    tolerations?: Toleration[];
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Semantic equality of two resource lists: same names, equal quantities; absent equals empty. */
export function resourceListsEqual(a: ResourceList | undefined, b: ResourceList | undefined): boolean {
  const ka = Object.keys(a ?? {});
  const kb = Object.keys(b ?? {});
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    const qa = parseExact(a![k]!);
    const qb = parseExact(b![k]!);
    if (!qa || !qb) {
      if (String(a![k]) !== String(b![k])) return false;
    } else if (compareQuantity(qa, qb) !== 0) return false;
  }
  return true;
}

const overheadMismatch = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";

export class RuntimeClassPlugin implements MutationInterface, ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE');

  constructor(private readonly classes: ObjectLister) {}

  async admit(attrs: Attributes): Promise<void> {
    if (shouldIgnore(attrs)) return;
    const { pod, rc } = await this.prepare(attrs);
    const spec = (pod.spec ??= {});
    if (rc?.overhead) {
      if (Object.keys(spec.overhead ?? {}).length > 0 && !resourceListsEqual(rc.overhead.podFixed, spec.overhead)) {
        throw newAdmissionForbidden(attrs, overheadMismatch);
      }
      if (rc.overhead.podFixed) spec.overhead = { ...rc.overhead.podFixed };
      else delete spec.overhead;
    }
    if (rc?.scheduling) {
      const runtimeSelector = rc.scheduling.nodeSelector;
      if (!spec.nodeSelector) {
        if (runtimeSelector) spec.nodeSelector = { ...runtimeSelector };
      } else {
        for (const [k, v] of Object.entries(runtimeSelector ?? {})) {
          const podValue = spec.nodeSelector[k];
          if (podValue !== undefined && podValue !== v) {
            throw newAdmissionForbidden(attrs, `conflict: runtimeClass.scheduling.nodeSelector[${k}] = ${v}; pod.spec.nodeSelector[${k}] = ${podValue}`);
          }
          spec.nodeSelector[k] = v;
        }
      }
      const merged = mergeTolerations(spec.tolerations ?? [], rc.scheduling.tolerations ?? []);
      if (merged.length > 0) spec.tolerations = merged;
      else delete spec.tolerations;
    }
  }

  async validate(attrs: Attributes): Promise<void> {
    if (shouldIgnore(attrs)) return;
    const { pod, rc } = await this.prepare(attrs);
    const overhead = pod.spec?.overhead;
    if (Object.keys(overhead ?? {}).length === 0) return;
    if (rc?.overhead) {
      if (!resourceListsEqual(rc.overhead.podFixed, overhead)) throw newAdmissionForbidden(attrs, overheadMismatch);
    } else {
      throw newAdmissionForbidden(attrs, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
    }
  }

  private async prepare(attrs: Attributes): Promise<{ pod: PodLike; rc: RuntimeClassLike | undefined }> {
    const pod = attrs.object;
    if (!isObject(pod)) throw newBadRequest('Resource was marked with kind Pod but was unable to be converted');
    const name = (pod as PodLike).spec?.runtimeClassName;
    if (name === undefined || name === null) return { pod: pod as PodLike, rc: undefined };
    // The cache may lag behind a class created a moment ago: read it live before refusing.
    const rc = this.classes.get('', name) ?? await this.classes.fetch('', name);
    if (!rc) throw newAdmissionForbidden(attrs, `pod rejected: RuntimeClass ${JSON.stringify(name)} not found`);
    return { pod: pod as PodLike, rc: rc as RuntimeClassLike };
  }
}

function shouldIgnore(attrs: Attributes): boolean {
  return attrs.subresource !== '' || attrs.resource.group !== '' || attrs.resource.resource !== 'pods';
}

export const runtimeClassFactory: PluginFactory = (_configuration: unknown, deps: PluginDeps) => {
  const lister = deps.lister(deps.domain.group('node'), 'runtimeclasses');
  if (!lister) throw new Error('missing RuntimeClass lister');
  return new RuntimeClassPlugin(lister);
};

