// ImagePolicyWebhook (upstream plugin/pkg/admission/imagepolicy, 1.30): the images of a pod being
// created or updated (or of its ephemeral containers, through that sub-resource) go to a webhook as
// an ImageReview, with the pod's `*.image-policy.<domain>/*` annotations and its namespace; the
// answer admits or refuses the pod and is cached by the whole review (allowed answers for allowTTL,
// denials for denyTTL). The answer's auditAnnotations are recorded under
// `imagepolicywebhook.image-policy.<domain>/`. When the webhook cannot be asked (after upstream's
// retries of transient failures), defaultAllow decides; a pod admitted so is annotated
// `alpha.image-policy.<domain>/failed-open: "true"` and the request audited with `.../failed-open`.
import { ExpiringLRU } from '../../util/expiring-lru.js';
import { withExponentialBackoff, type RetryBackoff } from '../../util/webhook/backoff.js';
import { WebhookCallError, WebhookClient } from '../../util/webhook/client.js';
import { loadWebhookKubeconfig, type WebhookClientConfig } from '../../util/webhook/kubeconfig.js';
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type Attributes, type PluginDeps, type ValidationInterface } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';
import { loadConfiguration, type ImagePolicyConfig } from './config.js';
import { imageReviewRequest, imageReviewSpec, parseImageReviewResponse, type ImageReviewStatus } from './image-review.js';

export const PluginName = 'ImagePolicyWebhook';

type Container = { image?: unknown };
type PodLike = { metadata?: { annotations?: Record<string, string> }; spec?: { containers?: Container[]; initContainers?: Container[]; ephemeralContainers?: Container[] } };

export interface ImagePolicyWebhookOptions {
  /** The webhook's client configuration instead of the configuration's kubeConfigFile (tests). */
  client?: WebhookClientConfig;
  /** Timeout of each call, body included; upstream's webhook client gives 30s. */
  requestTimeoutMs?: number;
  /** Bound of one review, retries included (upstream's is the request's own deadline). */
  lookupTimeoutMs?: number;
  /** Clock of the answer cache (milliseconds). */
  now?: () => number;
}

export class ImagePolicyWebhook implements ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE', 'UPDATE');
  private readonly client: WebhookClient;
  private readonly cache: ExpiringLRU<ImageReviewStatus>;
  private readonly apiVersion: string;
  private readonly backoff: RetryBackoff;
  /** `.image-policy.<domain>/`: the annotations passed on to the webhook contain it. */
  private readonly policyDomain: string;
  /** Where the answer's audit annotations and failed-open are recorded. */
  readonly auditKeyPrefix: string;
  /** The pod annotation of a pod admitted because the webhook could not be asked. */
  readonly failedOpenAnnotation: string;

  constructor(private readonly config: ImagePolicyConfig, deps: PluginDeps, private readonly opts: ImagePolicyWebhookOptions = {}) {
    this.client = new WebhookClient(opts.client ?? loadWebhookKubeconfig(config.kubeConfigFile), { userAgent: 'orch-apiserver/image-policy-webhook' });
    this.cache = new ExpiringLRU(1024, opts.now);
    this.apiVersion = `${deps.domain.group('imagepolicy')}/v1alpha1`;
    // Upstream's DefaultRetryBackoffWithInitialDelay: the configured first delay, then upstream's usual growth.
    this.backoff = { initialDelayMs: config.retryBackoffMs, factor: 1.5, jitter: 0.2, steps: 5 };
    const imagePolicy = deps.domain.group('image-policy');
    this.policyDomain = `.${imagePolicy}/`;
    this.auditKeyPrefix = `${PluginName.toLowerCase()}.${imagePolicy}/`;
    this.failedOpenAnnotation = `alpha.${imagePolicy}/failed-open`;
  }

  async validate(attrs: Attributes): Promise<void> {
    const sub = attrs.subresource;
    if ((sub !== '' && sub !== 'ephemeralcontainers') || attrs.resource.group !== '' || attrs.resource.resource !== 'pods') return;
    const pod = attrs.object as PodLike | undefined;
    if (!pod) return;
    const containers = sub === '' ? [...pod.spec?.containers ?? [], ...pod.spec?.initContainers ?? []] : pod.spec?.ephemeralContainers ?? [];
    const images = containers.map((c) => (typeof c.image === 'string' ? c.image : ''));
    const passed = Object.fromEntries(Object.entries(pod.metadata?.annotations ?? {}).filter(([k]) => k.includes(this.policyDomain)));
    const spec = imageReviewSpec(images, passed, attrs.namespace);
    const key = JSON.stringify(spec);
    let status = this.cache.get(key);
    if (!status) {
      try {
        status = await this.review(imageReviewRequest(this.apiVersion, spec));
      } catch (e) {
        this.failed(pod, attrs, e);
        return;
      }
      this.cache.add(key, status, status.allowed ? this.config.allowTTLMs : this.config.denyTTLMs);
    }
    for (const [k, v] of Object.entries(status.auditAnnotations)) {
      try {
        attrs.addAnnotation(this.auditKeyPrefix + k, v);
      } catch {
        // Upstream logs a key it cannot record and goes on: the webhook's answer still counts.
      }
    }
    if (!status.allowed) {
      throw newAdmissionForbidden(attrs, status.reason
        ? `image policy webhook backend denied one or more images: ${status.reason}`
        : 'one or more images rejected by webhook backend');
    }
  }

  /** A webhook that could not be asked: refuse the pod, or with defaultAllow admit it marked as such. */
  private failed(pod: PodLike, attrs: Attributes, e: unknown): void {
    if (!this.config.defaultAllow) throw newAdmissionForbidden(attrs, e instanceof Error ? e : String(e));
    attrs.addAnnotation(`${this.auditKeyPrefix}failed-open`, 'true');
    (pod.metadata ??= {}).annotations = { ...pod.metadata.annotations, [this.failedOpenAnnotation]: 'true' };
  }

  private async review(body: string): Promise<ImageReviewStatus> {
    const deadline = Date.now() + (this.opts.lookupTimeoutMs ?? 60_000);
    const requestTimeoutMs = this.opts.requestTimeoutMs ?? 30_000;
    const answer = await withExponentialBackoff(
      this.backoff,
      deadline,
      () => this.client.post(body, { timeoutMs: Math.max(1, Math.min(requestTimeoutMs, deadline - Date.now())), maxResponseBytes: 1 << 20, secret: '' }),
      (e) => e instanceof WebhookCallError && e.retryable,
    );
    return parseImageReviewResponse(answer.body, this.apiVersion);
  }

  /** Closes the kept-alive connections to the webhook. */
  close(): void {
    this.client.close();
  }
}

/** Makes the plug-in from its configuration (see config.ts): its kubeconfig is read now, and a bad one stops start-up. */
export const imagePolicyWebhookFactory: PluginFactory = (configuration, deps) => new ImagePolicyWebhook(loadConfiguration(configuration), deps);
