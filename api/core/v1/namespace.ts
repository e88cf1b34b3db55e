import { type Static } from '@sinclair/typebox';
import { enumOf, field, list, object, opt, str, stringList } from '../../schema.js';
import { time } from '../../meta/v1/primitives.js';
import { topLevel } from '../../meta/v1/types.js';
import type { ApiDomain } from '../../domain.js';

const P = 'io.orch.api.core.v1';

export const NamespacePhases = ['Active', 'Terminating'] as const;

export const NamespaceCondition = object(`${P}.NamespaceCondition`, {
  type: str(1, { description: 'Type of the condition, such as NamespaceDeletionContentFailure.' }),
  status: enumOf(2, ['True', 'False', 'Unknown'] as const, { description: 'True, False or Unknown.' }),
  lastTransitionTime: opt(time(4, { 'x-orch-emit': 'always', description: 'When the condition last changed status.' })),
  reason: opt(str(5, { description: 'Machine-readable reason for the last transition.' })),
  message: opt(str(6, { description: 'Human-readable details about the last transition.' })),
}, { required: ['type', 'status'], description: 'One aspect of the state of a namespace, such as a failure to delete its content.' });
export type NamespaceCondition = Static<typeof NamespaceCondition>;

export const NamespaceSpec = object(`${P}.NamespaceSpec`, {
  finalizers: opt(stringList(1, { listType: 'atomic' }, {
    description: 'Names of the parties that must clean up before the namespace is removed; changed only through the finalize sub-resource.',
  })),
}, { description: 'The desired state of a namespace.' });

export const NamespaceStatus = object(`${P}.NamespaceStatus`, {
  phase: opt(enumOf(1, NamespacePhases, {
    default: 'Active',
    description: 'Active, or Terminating once deletion was requested and its content is being removed.',
  })),
  conditions: opt(list(2, NamespaceCondition, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }, {
    description: 'Latest observations of the state of the namespace.',
  })),
}, { description: 'The observed state of a namespace.' });

export const Namespace = topLevel(`${P}.Namespace`, {
  spec: opt(field(2, NamespaceSpec, { 'x-orch-emit': 'always', description: 'The desired state of the namespace: its finalizers.' })),
  status: opt(field(3, NamespaceStatus, { 'x-orch-emit': 'always', description: 'The observed state of the namespace: its phase and conditions.' })),
}, { description: 'A scope for names: most objects live in a namespace, and deleting the namespace deletes them.' });
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
