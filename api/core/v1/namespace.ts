import { type Static } from '@sinclair/typebox';
import { enumOf, field, list, object, opt, str, stringList } from '../../schema.js';
import { time } from '../../meta/v1/primitives.js';
import { topLevel } from '../../meta/v1/types.js';
import type { ApiDomain } from '../../domain.js';

const P = 'io.orch.api.core.v1';

export const NamespacePhases = ['Active', 'Terminating'] as const;

export const NamespaceCondition = object(`${P}.NamespaceCondition`, {
  type: str(1),
  status: enumOf(2, ['True', 'False', 'Unknown'] as const),
  lastTransitionTime: opt(time(4)),
  reason: opt(str(5)),
  message: opt(str(6)),
}, { required: ['type', 'status'] });
export type NamespaceCondition = Static<typeof NamespaceCondition>;

export const NamespaceSpec = object(`${P}.NamespaceSpec`, {
  finalizers: opt(stringList(1, { listType: 'atomic' })),
});

export const NamespaceStatus = object(`${P}.NamespaceStatus`, {
  phase: opt(enumOf(1, NamespacePhases, { default: 'Active' })),
  conditions: opt(list(2, NamespaceCondition, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' })),
});

export const Namespace = topLevel(`${P}.Namespace`, {
  spec: opt(field(2, NamespaceSpec)),
  status: opt(field(3, NamespaceStatus)),
});
export type Namespace = Static<typeof Namespace>;

/** The label every namespace carries with its own name, so selectors can pick namespaces by name. */
export const namespaceNameLabel = (d: ApiDomain) => d.key('metadata.name');

/** Upstream SetDefaults_Namespace and SetDefaults_NamespaceStatus: the name label and phase Active. */
export function defaultNamespace(ns: Namespace, d: ApiDomain): void {
  const name = ns.metadata?.name;
  if (name) {
    ns.metadata!.labels = { ...(ns.metadata!.labels ?? {}), [namespaceNameLabel(d)]: name };
  }
  ns.status ??= {};
  ns.status.phase ||= 'Active';
}
