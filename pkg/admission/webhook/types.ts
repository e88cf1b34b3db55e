// The parts of ValidatingWebhookConfiguration and MutatingWebhookConfiguration
// (admissionregistration.<domain>/v1) the webhook plug-ins read, typed narrowly here: the objects
// come from the server's cache, already validated and defaulted by their registry, so only the
// fields admission acts on are named.
import type { LabelSelector } from '../../../api/meta/v1/types.js';
import { MatchConditionMatcher, type MatchCondition } from '../cel/match-conditions.js';

export type RuleOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT' | '*';
export type RuleScope = 'Cluster' | 'Namespaced' | '*';

export interface RuleWithOperations {
  operations?: RuleOperation[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: RuleScope;
}

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** Base64 of a PEM bundle (the JSON form of Go's []byte). */
  caBundle?: string;
}

export type FailurePolicy = 'Ignore' | 'Fail';
export type MatchPolicy = 'Exact' | 'Equivalent';
export type SideEffectClass = 'None' | 'NoneOnDryRun' | 'Some' | 'Unknown';
export type ReinvocationPolicy = 'Never' | 'IfNeeded';

/** One webhook of either kind; `reinvocationPolicy` is read only for mutating ones. */
export interface Webhook {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: FailurePolicy;
  matchPolicy?: MatchPolicy;
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  sideEffects?: SideEffectClass;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  reinvocationPolicy?: ReinvocationPolicy;
  matchConditions?: MatchCondition[];
}

export interface WebhookConfiguration {
  metadata?: { name?: string; resourceVersion?: string };
  webhooks?: Webhook[];
}

export type WebhookType = 'mutating' | 'validating';

/** One webhook as the dispatchers see it: the webhook with where it came from and its defaults applied. */
export interface WebhookAccessor {
  /** Unique among the webhooks of one kind: `<configuration>/<webhook>/<index>`, as upstream's. */
  readonly uid: string;
  readonly configurationName: string;
  readonly name: string;
  readonly type: WebhookType;
  readonly webhook: Webhook;
  readonly failurePolicy: FailurePolicy;
  readonly matchPolicy: MatchPolicy;
  readonly timeoutSeconds: number;
  readonly reinvocationPolicy: ReinvocationPolicy;
  /** The webhook's compiled matchConditions (compiled on first use, once per configuration version). */
  matcher(): MatchConditionMatcher;
}

/** Upstream's defaults, for objects that somehow lack them (the registry normally fills them in). */
export function webhookAccessor(configurationName: string, index: number, type: WebhookType, webhook: Webhook): WebhookAccessor {
  let matcher: MatchConditionMatcher | undefined;
  const failurePolicy = webhook.failurePolicy ?? 'Fail';
  return {
    matcher: () => (matcher ??= new MatchConditionMatcher(webhook.matchConditions ?? [], failurePolicy)),
    uid: `${configurationName}/${webhook.name}/${index}`,
    configurationName,
    name: webhook.name,
    type,
    webhook,
    failurePolicy,
    matchPolicy: webhook.matchPolicy ?? 'Equivalent',
    timeoutSeconds: webhook.timeoutSeconds ?? 10,
    reinvocationPolicy: webhook.reinvocationPolicy ?? 'Never',
  };
}
