// Webhook token authentication (spec 5.7): a bearer token no local authenticator knows is sent
// in a TokenReview to a remote service, whose answer names the user. Behaviour follows
// upstream's webhook token authenticator wrapped in its token cache:
//
// - audiences: the review carries the audiences asked for; when there are some, the answer's
//   status.audiences (or, when it names none, the API server's own --api-audiences) must meet
//   them, else the token is not ours (skipped), and a success reports the audiences in common;
// - an answer with authenticated false is "not ours" (skipped) unless it gives status.error,
//   which becomes the failure reason (401);
// - a remote error, a non-2xx answer, a timeout, a malformed or oversized answer, or a wrong
//   apiVersion/kind fail (401) with the reason; transient ones are retried with backoff first;
// - answers are cached for --authentication-token-webhook-cache-ttl, errors are not.
//
// Nothing here throws from authenticateToken, and the token is never in a reason or log line.
import type { ApiDomain } from '../../../api/domain.js';
import { authenticated, failed, skipped, type AuthenticationResult, type TokenAuthenticator } from '../authenticator.js';
import type { UserInfo } from '../../runtime/user.js';
import { defaultRetryBackoff, validateRetryBackoff, withExponentialBackoff, type RetryBackoff } from '../../util/webhook/backoff.js';
import { TokenCache } from '../token-cache.js';
import type { AnswerCache } from '../../util/cache/answer-cache.js';
import { WebhookCallError, WebhookClient } from '../../util/webhook/client.js';
import { loadWebhookKubeconfig, type WebhookClientConfig } from '../../util/webhook/kubeconfig.js';
import { parseTokenReviewResponse, tokenReviewRequest, type TokenReviewVersion } from './token-review.js';

export interface WebhookTokenOptions {
  /** --authentication-token-webhook-config-file: kubeconfig naming the service and our credentials. Required unless `client` is given. */
  configFile?: string;
  /** The parsed client configuration instead of a file (for callers that built it already). */
  client?: WebhookClientConfig;
  /**
   * --authentication-token-webhook-version: the TokenReview version sent and expected, `v1` or
   * `v1beta1`. Default `v1`. (kube-apiserver's flag still defaults to v1beta1.)
   */
  version?: TokenReviewVersion;
  /** --authentication-token-webhook-cache-ttl: how long answers are cached; default 2 minutes; 0 disables. */
  cacheTTLMs?: number;
  /** --api-audiences: the audiences a token is valid for when the answer names none. */
  apiAudiences?: readonly string[];
  /** --api-domain: the review's group is authentication.<domain>. */
  domain: ApiDomain;

  // Not flags: upstream hard-codes these.
  /** Retry policy for transient failures; upstream DefaultAuthWebhookRetryBackoff (500ms, x1.5, 20% jitter, 5 attempts). */
  retryBackoff?: RetryBackoff;
  /** Timeout of each call, body included; upstream's webhook client default 30s. */
  requestTimeoutMs?: number;
  /** Bound of one lookup, retries included; upstream's token cache gives a shared lookup 30s. */
  lookupTimeoutMs?: number;
  /** Largest answer read; default 1 MiB. */
  maxResponseBytes?: number;
  /** Clock for the cache (milliseconds); default Date.now. */
  now?: () => number;
  /** Where answers are kept (with `keySalt`, the cache every thread of the server shares); default this thread's own. */
  answers?: AnswerCache<AuthenticationResult>;
  keySalt?: Uint8Array;
}

export class WebhookTokenAuthenticator implements TokenAuthenticator {
  readonly name = 'webhook';
  private readonly client: WebhookClient;
  private readonly cache: TokenCache;
  private readonly apiVersion: string;
  private readonly backoff: RetryBackoff;
  private readonly requestTimeoutMs: number;
  private readonly lookupTimeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly apiAudiences: readonly string[];

  /** Loads the kubeconfig and validates the options; throws (at start-up) on a bad configuration. */
  constructor(opts: WebhookTokenOptions) {
    const version = opts.version ?? 'v1';
    if (version !== 'v1' && version !== 'v1beta1') {
      throw new Error(`unsupported authentication webhook version ${JSON.stringify(version)}, supported versions are "v1", "v1beta1"`);
    }
    this.backoff = opts.retryBackoff ?? defaultRetryBackoff;
    validateRetryBackoff(this.backoff);
    const cfg = opts.client ?? (opts.configFile ? loadWebhookKubeconfig(opts.configFile, opts.now) : undefined);
    if (!cfg) throw new Error('authentication-token-webhook-config-file is required');
    this.client = new WebhookClient(cfg);
    this.apiVersion = `${opts.domain.group('authentication')}/${version}`;
    this.cache = new TokenCache({
      ttlMs: opts.cacheTTLMs ?? 120_000,
      ...(opts.now ? { now: opts.now } : {}), ...(opts.answers ? { answers: opts.answers } : {}), ...(opts.keySalt ? { salt: opts.keySalt } : {}),
    });
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 30_000;
    this.lookupTimeoutMs = opts.lookupTimeoutMs ?? 30_000;
    this.maxResponseBytes = opts.maxResponseBytes ?? 1 << 20;
    this.apiAudiences = opts.apiAudiences ?? [];
  }

  async authenticateToken(token: string, audiences: readonly string[]): Promise<AuthenticationResult> {
    try {
      return await this.cache.get(token, audiences, () => this.review(token, audiences));
    } catch (e) {
      // review() never rejects; this is the last guard that authentication never throws.
      return failed(redact(e instanceof Error ? e.message : String(e), token));
    }
  }

  private async review(token: string, audiences: readonly string[]): Promise<AuthenticationResult> {
    const body = tokenReviewRequest(this.apiVersion, token, audiences);
    const deadline = Date.now() + this.lookupTimeoutMs;
    let answer: string;
    try {
      answer = (
        await withExponentialBackoff(
          this.backoff,
          deadline,
          () => this.client.post(body, { timeoutMs: Math.max(1, Math.min(this.requestTimeoutMs, deadline - Date.now())), maxResponseBytes: this.maxResponseBytes, secret: token }),
          (e) => e instanceof WebhookCallError && e.retryable,
        )
      ).body;
    } catch (e) {
      return failed(redact(e instanceof Error ? e.message : String(e), token));
    }
    let status;
    try {
      status = parseTokenReviewResponse(answer, this.apiVersion);
    } catch (e) {
      return failed(redact(e instanceof Error ? e.message : String(e), token));
    }
    let common: string[] | undefined;
    if (audiences.length > 0) {
      const valid = status.audiences.length > 0 ? status.audiences : this.apiAudiences;
      common = audiences.filter((a) => valid.includes(a));
      if (common.length === 0) return skipped;
    }
    if (!status.authenticated) return status.error ? failed(redact(status.error, token)) : skipped;
    if (!status.user.username) return failed('the webhook authenticated the token without a username');
    const user: UserInfo = { name: status.user.username, groups: [...status.user.groups], extra: status.user.extra };
    if (status.user.uid) user.uid = status.user.uid;
    return authenticated(user, common);
  }

  /** Closes the kept-alive connections to the webhook. */
  close(): void {
    this.client.close();
  }
}

function redact(text: string, secret: string): string {
  return secret ? text.split(secret).join('[redacted]') : text;
}
