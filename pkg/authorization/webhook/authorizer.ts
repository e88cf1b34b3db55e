// The Webhook mode (spec 5.10): each request's attributes go to a remote service as a
// SubjectAccessReview, whose status decides. Behaviour follows upstream's webhook authorizer as
// kube-apiserver configures it from the --authorization-webhook-* flags:
//
// - status.denied (with or without allowed) is deny — both together also carry an error —,
//   status.allowed is allow, neither is no opinion; status.reason goes with every decision.
//   status.evaluationError is read but, as upstream, not surfaced as our evaluation error;
// - a failed call (unreachable, non-2xx, timeout, malformed answer) is no opinion with the error
//   as evaluationError: kube-apiserver's legacy flags give the webhook failure policy NoOpinion,
//   so later modes still decide; transient failures are retried with upstream's backoff first;
// - answers are cached by the whole review spec: allowed ones for the authorized TTL (default
//   5m), the others for the unauthorized TTL (default 30s); errors are never cached, and neither
//   are requests whose requester-controlled attributes are too long to be worth a cache slot;
//   concurrent requests of one review share one call.
//
// authorize() never rejects.
import type { ApiDomain } from '../../../api/domain.js';
import { defaultRetryBackoff, validateRetryBackoff, withExponentialBackoff, type RetryBackoff } from '../../util/webhook/backoff.js';
import { WebhookCallError, WebhookClient } from '../../util/webhook/client.js';
import { loadWebhookKubeconfig, type WebhookClientConfig } from '../../util/webhook/kubeconfig.js';
import type { UserInfo } from '../../runtime/user.js';
import type { Attributes } from '../attributes.js';
import type { Authorizer, Decision, RuleResolver, RulesResult } from '../authorizer.js';
import type { AuthorizationOptions } from '../modes.js';
import { LocalAnswerCache, type AnswerCache, type AnswerCacheFactory } from '../../util/cache/answer-cache.js';
import {
  parseSubjectAccessReviewResponse,
  subjectAccessReviewRequest,
  subjectAccessReviewSpec,
  type SubjectAccessReviewStatus,
  type SubjectAccessReviewVersion,
} from './subject-access-review.js';

export interface WebhookAuthorizerOptions {
  /** --authorization-webhook-config-file: kubeconfig naming the service and our credentials. Required unless `client` is given. */
  configFile?: string;
  /** The parsed client configuration instead of a file. */
  client?: WebhookClientConfig;
  /** --authorization-webhook-version: `v1` (default) or `v1beta1`. (kube-apiserver's flag still defaults to v1beta1.) */
  version?: string;
  /** --authorization-webhook-cache-authorized-ttl; default 5 minutes; 0 caches no allowed answers. */
  authorizedTTLMs?: number;
  /** --authorization-webhook-cache-unauthorized-ttl; default 30 seconds; 0 caches no other answers. */
  unauthorizedTTLMs?: number;
  /** --api-domain: the review's group is authorization.<domain>. */
  domain: ApiDomain;

  // Not flags: upstream hard-codes these.
  /** Retry policy for transient failures; upstream DefaultAuthWebhookRetryBackoff (500ms, x1.5, 20% jitter, 5 attempts). */
  retryBackoff?: RetryBackoff;
  /** Timeout of each call, body included; kube-apiserver gives the legacy webhook 30s. */
  requestTimeoutMs?: number;
  /** Bound of one decision, retries included; upstream's is the request's own deadline (default 60s). */
  lookupTimeoutMs?: number;
  /** Largest answer read; default 1 MiB. */
  maxResponseBytes?: number;
  /** Clock for the cache (milliseconds); default Date.now. */
  now?: () => number;
  /** Where answers are kept (the cache every thread of the server shares); default this thread's own. */
  answers?: AnswerCache<SubjectAccessReviewStatus>;
}

/** Upstream's webhook authorizer keeps this many answers. */
export const webhookAuthorizerCacheEntries = 8192;

/** Upstream skips the cache when the requester-controlled attributes add up to this many bytes. */
const maxControlledAttrCacheSize = 10_000;

export const bothAllowedAndDenied = 'webhook subject access review returned both allow and deny response';
export const noRuleResolution = 'webhook authorizer does not support user rule resolution';

export class WebhookAuthorizer implements Authorizer, RuleResolver {
  private readonly client: WebhookClient;
  private readonly cache: AnswerCache<SubjectAccessReviewStatus>;
  private readonly group: string;
  private readonly version: SubjectAccessReviewVersion;
  private readonly backoff: RetryBackoff;
  private readonly authorizedTTLMs: number;
  private readonly unauthorizedTTLMs: number;
  private readonly requestTimeoutMs: number;
  private readonly lookupTimeoutMs: number;
  private readonly maxResponseBytes: number;

  /** Loads the kubeconfig and validates the options; throws (at start-up) on a bad configuration. */
  constructor(opts: WebhookAuthorizerOptions) {
    const version = opts.version ?? 'v1';
    if (version !== 'v1' && version !== 'v1beta1') {
      throw new Error(`unsupported webhook authorizer version ${JSON.stringify(version)}, supported versions are "v1", "v1beta1"`);
    }
    this.version = version;
    this.backoff = opts.retryBackoff ?? defaultRetryBackoff;
    validateRetryBackoff(this.backoff);
    const cfg = opts.client ?? (opts.configFile ? loadWebhookKubeconfig(opts.configFile, opts.now) : undefined);
    if (!cfg) throw new Error("authorization-mode Webhook's authorization config file not passed");
    this.client = new WebhookClient(cfg, { userAgent: 'orch-apiserver/webhook-authorizer' });
    this.group = opts.domain.group('authorization');
    this.cache = opts.answers ?? new LocalAnswerCache(webhookAuthorizerCacheEntries, opts.now);
    this.authorizedTTLMs = opts.authorizedTTLMs ?? 5 * 60_000;
    this.unauthorizedTTLMs = opts.unauthorizedTTLMs ?? 30_000;
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 30_000;
    this.lookupTimeoutMs = opts.lookupTimeoutMs ?? 60_000;
    this.maxResponseBytes = opts.maxResponseBytes ?? 1 << 20;
  }

  async authorize(a: Attributes): Promise<Decision> {
    const spec = subjectAccessReviewSpec(a);
    const cached = shouldCache(a);
    let status: SubjectAccessReviewStatus;
    try {
      status = await this.cache.get(JSON.stringify(spec), async () => {
        const value = await this.review(spec);
        return { value, ttlMs: !cached ? 0 : value.allowed ? this.authorizedTTLMs : this.unauthorizedTTLMs };
      });
    } catch (e) {
      return { decision: 'noOpinion', reason: '', evaluationError: e instanceof Error ? e.message : String(e) };
    }
    if (status.denied && status.allowed) return { decision: 'deny', reason: status.reason, evaluationError: bothAllowedAndDenied };
    if (status.denied) return { decision: 'deny', reason: status.reason };
    if (status.allowed) return { decision: 'allow', reason: status.reason };
    return { decision: 'noOpinion', reason: status.reason };
  }

  /** Upstream's webhook cannot list rules: incomplete, with an error. */
  async rulesFor(_user: UserInfo, _namespace: string): Promise<RulesResult> {
    return { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: noRuleResolution };
  }

  private async review(spec: Record<string, unknown>): Promise<SubjectAccessReviewStatus> {
    const body = subjectAccessReviewRequest(`${this.group}/${this.version}`, this.version, spec);
    const deadline = Date.now() + this.lookupTimeoutMs;
    const answer = await withExponentialBackoff(
      this.backoff,
      deadline,
      () => this.client.post(body, { timeoutMs: Math.max(1, Math.min(this.requestTimeoutMs, deadline - Date.now())), maxResponseBytes: this.maxResponseBytes, secret: '' }),
      (e) => e instanceof WebhookCallError && e.retryable,
    );
    return parseSubjectAccessReviewResponse(answer.body, this.group);
  }

  /** Closes the kept-alive connections to the webhook. */
  close(): void {
    this.client.close();
  }
}

/** The Webhook mode as the --authorization-webhook-* flags configure it, keeping its answers in `answers`' cache. */
export function webhookAuthorizerFromOptions(o: AuthorizationOptions, domain: ApiDomain, answers: AnswerCacheFactory): WebhookAuthorizer {
  return new WebhookAuthorizer({
    configFile: o.webhookConfigFile,
    version: o.webhookVersion,
    authorizedTTLMs: o.webhookCacheAuthorizedTTLMs,
    unauthorizedTTLMs: o.webhookCacheUnauthorizedTTLMs,
    domain,
    answers: answers('authorization-webhook', webhookAuthorizerCacheEntries),
  });
}

/** Upstream's shouldCache: the requester-controlled attributes are short enough to be a key. */
function shouldCache(a: Attributes): boolean {
  const size = [a.namespace, a.verb, a.apiGroup, a.apiVersion, a.resource, a.subresource, a.name, a.path].reduce((n, s) => n + Buffer.byteLength(s), 0);
  return size < maxControlledAttrCacheSize;
}
