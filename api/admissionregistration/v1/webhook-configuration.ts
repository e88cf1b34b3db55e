// admissionregistration/v1 ValidatingWebhookConfiguration and MutatingWebhookConfiguration: which
// requests the admission webhooks see and how the server reaches them. Field numbers follow
// upstream's admissionregistration/v1 generated.proto.
//
// Some fields upstream's OpenAPI lists as required (a webhook's clientConfig, sideEffects and
// admissionReviewVersions, a service's namespace and name) are left out of `required` here: the
// kind's validation reports them with upstream's messages ("must specify one of ..."), which a
// bare schema `required` cannot carry.
import { Type, type Static } from '@sinclair/typebox';
import { bytes, enumOf, field, int32, list, object, opt, str, stringList, type ListMarkers } from '../../schema.js';
import { embedded } from '../../embedded-fields.js';
import { LabelSelector, topLevel } from '../../meta/v1/types.js';

const P = 'io.orch.api.admissionregistration.v1';

// Enumerations are listed sorted, as upstream lists the supported values in its messages.
export const Operations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'] as const;
export const Scopes = ['*', 'Cluster', 'Namespaced'] as const;
export const FailurePolicies = ['Fail', 'Ignore'] as const;
export const MatchPolicies = ['Equivalent', 'Exact'] as const;
export const ReinvocationPolicies = ['IfNeeded', 'Never'] as const;
/** Every side-effect class the API knows; v1 accepts only the two without side effects on new objects. */
export const SideEffectClasses = ['None', 'NoneOnDryRun', 'Some', 'Unknown'] as const;
export const NoSideEffectClasses = ['None', 'NoneOnDryRun'] as const;

export const ServiceReference = object(`${P}.ServiceReference`, {
  namespace: opt(str(1, { 'x-orch-emit': 'always', description: 'Namespace of the service. Required.' })),
  name: opt(str(2, { 'x-orch-emit': 'always', description: 'Name of the service. Required.' })),
  path: opt(str(3, {
    'x-orch-emit': 'pointer',
    description: 'URL path the request is posted to on the service, starting with "/"; each segment a DNS subdomain.',
  })),
  port: opt(int32(4, {
    default: 443,
    'x-orch-emit': 'pointer',
    description: 'Port of the service the webhook listens on, 1-65535. Defaults to 443.',
  })),
}, { description: 'A service in the cluster through which a webhook is reached over HTTPS.' });
export type ServiceReference = Static<typeof ServiceReference>;

export const WebhookClientConfig = object(`${P}.WebhookClientConfig`, {
  url: opt(str(3, {
    'x-orch-emit': 'pointer',
    description: 'Where the webhook listens, as https://host[:port][/path]: https only, without user information, query or fragment. ' +
      'Exactly one of url and service is given.',
  })),
  service: opt(field(1, ServiceReference, {
    description: 'The service in the cluster the webhook runs behind. Exactly one of url and service is given.',
  })),
  caBundle: opt(bytes(2, {
    description: 'PEM-encoded certificate authorities that sign the serving certificate of the webhook; when empty the system trust roots are used.',
  })),
}, { description: 'How the server connects to a webhook over TLS: by URL or through a service.' });
export type WebhookClientConfig = Static<typeof WebhookClientConfig>;

export const RuleWithOperations = object(`${P}.RuleWithOperations`, {
  operations: opt(list(1, Type.Unsafe<(typeof Operations)[number]>(Type.String({ enum: [...Operations] })), { listType: 'atomic' }, {
    description: 'Operations the rule covers: CREATE, UPDATE, DELETE, CONNECT, or "*" (alone) for all of them.',
  })),
  // Upstream embeds Rule inline: flat in JSON, a sub-message at field 2 in protobuf.
  ...embedded(2, {
    apiGroups: opt(stringList(1, { listType: 'atomic' }, {
      description: 'API groups the rule covers; "" is the core group and "*" (alone) every group.',
    })),
    apiVersions: opt(stringList(2, { listType: 'atomic' }, {
      description: 'API versions the rule covers; "*" (alone) is every version.',
    })),
    resources: opt(stringList(3, { listType: 'atomic' }, {
      description: 'Resources the rule covers: "pods", "pods/status", "pods/*" (pods and all their sub-resources), ' +
        '"*" (every resource, no sub-resources), "*/status" or "*/*" (everything).',
    })),
    scope: opt(enumOf(4, Scopes, {
      default: '*',
      'x-orch-emit': 'pointer',
      description: 'Which objects the rule covers: Cluster (cluster-scoped ones), Namespaced, or "*" (both, the default). ' +
        'A sub-resource has the scope of its resource.',
    })),
  }),
}, { description: 'Operations on resources, by group, version and scope, that send a request to a webhook.' });
export type RuleWithOperations = Static<typeof RuleWithOperations>;

export const MatchCondition = object(`${P}.MatchCondition`, {
  name: str(1, { description: 'Name of the condition, unique within the webhook; a qualified name as label keys are.' }),
  expression: str(2, {
    description: 'CEL expression that must yield true for the webhook to be called (or the policy to apply). It reads object, ' +
      'oldObject, request and authorizer (and params, in a policy with a paramKind).',
  }),
}, { required: ['name', 'expression'], description: 'A further condition a matching request must meet before the webhook is called or the policy applies.' });
export type MatchCondition = Static<typeof MatchCondition>;

/** The fields validating and mutating webhooks share, each at its own field number. */
function webhookFields(numbers: { objectSelector: number; matchConditions: number }, verb: string) {
  return {
    name: str(1, { description: 'Name of the webhook, qualified by its owner: a DNS subdomain of at least three labels, unique in the configuration.' }),
    clientConfig: opt(field(2, WebhookClientConfig, { 'x-orch-emit': 'always', description: 'How to reach the webhook. Required.' })),
    rules: opt(list(3, RuleWithOperations, { listType: 'atomic' }, {
      description: `The operations and resources for which the webhook is asked to ${verb} a request; any one rule matching suffices.`,
    })),
    failurePolicy: opt(enumOf(4, FailurePolicies, {
      default: 'Fail',
      'x-orch-emit': 'pointer',
      description: 'What an error calling the webhook means: Fail rejects the request, Ignore lets it through. Defaults to Fail.',
    })),
    matchPolicy: opt(enumOf(9, MatchPolicies, {
      default: 'Equivalent',
      'x-orch-emit': 'pointer',
      description: 'Exact matches requests only through the groups, versions and resources the rules name; Equivalent also ' +
        'matches the same objects reached through another group or version, converted to one the rules name. Defaults to Equivalent.',
    })),
    namespaceSelector: opt(field(5, LabelSelector, {
      default: {},
      description: 'Labels the namespace of the object (or a Namespace itself) must carry for the webhook to be called. ' +
        'Cluster-scoped objects other than namespaces always match. Defaults to the empty selector, matching everything.',
    })),
    objectSelector: opt(field(numbers.objectSelector, LabelSelector, {
      default: {},
      description: 'Labels the object (or, for updates and deletes, its old state) must carry for the webhook to be called. ' +
        'Defaults to the empty selector, matching everything.',
    })),
    sideEffects: opt(Type.Unsafe<(typeof SideEffectClasses)[number]>(Type.String({
      'x-proto': 6,
      'x-orch-emit': 'pointer',
      description: 'Whether calling the webhook changes anything beyond the request: None, or NoneOnDryRun (it has side effects ' +
        'but skips them for dry-run requests). Requests with dryRun fail on webhooks with other values. Required.',
    }))),
    timeoutSeconds: opt(int32(7, {
      default: 10,
      'x-orch-emit': 'pointer',
      description: 'How long to wait for the webhook, 1 to 30 seconds; a timeout is a call error handled by failurePolicy. Defaults to 10.',
    })),
    admissionReviewVersions: opt(stringList(8, { listType: 'atomic' }, {
      'x-orch-emit': 'always',
      description: 'AdmissionReview versions the webhook understands, preferred first; the server sends the first it supports (v1, v1beta1). ' +
        'Required, and at least one of them must be supported.',
    })),
    matchConditions: opt(list(numbers.matchConditions, MatchCondition,
      { listType: 'map', mapKeys: ['name'], patchStrategy: 'merge', patchMergeKey: 'name' }, {
        description: 'Up to 64 conditions a request matched by the rules and selectors must also meet for the webhook to be called.',
      })),
  };
}

export const ValidatingWebhook = object(`${P}.ValidatingWebhook`, {
  ...webhookFields({ objectSelector: 10, matchConditions: 11 }, 'validate'),
}, { required: ['name'], description: 'A webhook asked to allow or deny requests, and the requests it is asked about.' });
export type ValidatingWebhook = Static<typeof ValidatingWebhook>;

export const MutatingWebhook = object(`${P}.MutatingWebhook`, {
  ...webhookFields({ objectSelector: 11, matchConditions: 12 }, 'mutate'),
  reinvocationPolicy: opt(enumOf(10, ReinvocationPolicies, {
    default: 'Never',
    'x-orch-emit': 'pointer',
    description: 'Whether the webhook is called once more when later mutations changed the object after it ran: Never (the default) or IfNeeded.',
  })),
}, { required: ['name'], description: 'A webhook that may change objects before they are stored, and the requests it sees.' });
export type MutatingWebhook = Static<typeof MutatingWebhook>;

const webhooksMarkers: ListMarkers = { listType: 'map', mapKeys: ['name'], patchStrategy: 'merge', patchMergeKey: 'name' };

export const ValidatingWebhookConfiguration = topLevel(`${P}.ValidatingWebhookConfiguration`, {
  webhooks: opt(list(2, ValidatingWebhook, webhooksMarkers, { description: 'The validating webhooks, each with the requests it sees.' })),
}, { description: 'A set of admission webhooks that accept or reject requests without changing them.' });
export type ValidatingWebhookConfiguration = Static<typeof ValidatingWebhookConfiguration>;

export const MutatingWebhookConfiguration = topLevel(`${P}.MutatingWebhookConfiguration`, {
  webhooks: opt(list(2, MutatingWebhook, webhooksMarkers, { description: 'The mutating webhooks, called in order, each with the requests it sees.' })),
}, { description: 'A set of admission webhooks that may change or reject requests.' });
export type MutatingWebhookConfiguration = Static<typeof MutatingWebhookConfiguration>;

/** Either kind of webhook configuration. */
export type WebhookConfiguration = ValidatingWebhookConfiguration | MutatingWebhookConfiguration;
/** Either kind of webhook. */
export type Webhook = ValidatingWebhook | MutatingWebhook;
