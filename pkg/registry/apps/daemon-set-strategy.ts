// What DaemonSets add to the generic strategy (upstream's daemonset strategy and its v1
// conversion): the server counts template generations in the deprecated.daemonset.template.generation
// annotation, 1 at creation and one more with each change of spec.template; a client cannot set it.
// The DaemonSet controller labels its pods with it (pod-template-generation).
import { DaemonSetSpec } from '../../../api/apps/v1/daemon-set.js';
import { sameOnWire } from '../../runtime/wire-shape.js';
import type { StoredObject } from '../../storage/interface.js';
import type { StrategyOverrides } from '../generic/strategy.js';

/** Upstream's apps.DeprecatedTemplateGeneration (not domain-qualified there either). */
export const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';

const templateSchema = DaemonSetSpec.properties.template;

function setGeneration(obj: StoredObject, generation: number): void {
  obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [templateGenerationAnnotation]: String(generation) };
}

function generationOf(obj: StoredObject): number {
  const v = Number(obj.metadata.annotations?.[templateGenerationAnnotation]);
  return Number.isInteger(v) && v > 0 ? v : 1;
}

const template = (o: StoredObject) => (o.spec as { template?: unknown } | undefined)?.template;

export const daemonSetStrategy: StrategyOverrides = {
  prepareForCreate: (obj) => setGeneration(obj, generationOf(obj)),
  prepareForUpdate: (obj, old) => setGeneration(obj, generationOf(old) + (sameOnWire(templateSchema, template(obj), template(old)) ? 0 : 1)),
};
