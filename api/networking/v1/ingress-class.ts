import { type Static } from '@sinclair/typebox';
import { enumOf, field, object, opt, str } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';

const P = 'io.orch.api.networking.v1';

export const IngressClassParametersScopes = ['Namespace', 'Cluster'] as const;

export const IngressClassParametersReference = object(`${P}.IngressClassParametersReference`, {
  apiGroup: opt(str(1, { 'x-orch-emit': 'pointer', description: 'API group of the object referred to; unset for the core group.' })),
  kind: str(2, { description: 'Kind of the object referred to.' }),
  name: str(3, { description: 'Name of the object referred to.' }),
  scope: opt(enumOf(4, IngressClassParametersScopes, {
    default: 'Cluster',
    // Upstream's *string without omitempty.
    'x-orch-emit': 'always',
    description: 'Whether the object is cluster-scoped (Cluster, the default) or in a namespace (Namespace).',
  })),
  namespace: opt(str(5, {
    'x-orch-emit': 'pointer',
    description: 'Namespace of the object; required when scope is Namespace, forbidden when it is Cluster.',
  })),
}, { required: ['kind', 'name'], description: 'A reference to the object holding the parameters of an ingress class.' });

export const IngressClassSpec = object(`${P}.IngressClassSpec`, {
  controller: opt(str(1, {
    description: 'Name of the controller that implements the class, as a domain-prefixed path such as example.com/ingress-controller. Cannot be changed.',
  })),
  parameters: opt(field(2, IngressClassParametersReference, { description: 'Object holding more configuration of the controller.' })),
}, { description: 'The desired state of an ingress class: its controller and parameters.' });

export const IngressClass = topLevel(`${P}.IngressClass`, {
  spec: opt(field(2, IngressClassSpec, { 'x-orch-emit': 'always', description: 'The controller of the class and its parameters.' })),
}, {
  description: 'A kind of ingress, implemented by one controller; ingresses name it in ingressClassName. The annotation ingressclass.<domain>/is-default-class marks the default.',
});
export type IngressClass = Static<typeof IngressClass>;
