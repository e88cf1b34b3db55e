// One call of one webhook, the part both dispatchers share (upstream's callHook and
// callAttrMutatingHook up to the answer): the dry-run rule, the AdmissionReview in the version the
// webhook accepts, the POST, and the answer's checks; the answer's audit annotations and warnings
// are recorded on the request.
import type { ApiDomain } from '../../../api/domain.js';
import type { Attributes } from '../interfaces.js';
import { createAdmissionReview, decodeAdmissionReview, negotiateReviewVersion, verifyAdmissionResponse, type AdmissionResponse } from './admission-review.js';
import type { WebhookClientManager } from './client.js';
import { CallingWebhookError, dryRunUnsupported } from './errors.js';
import type { WebhookInvocation } from './match.js';
import type { VersionedObjects } from './versioned-attributes.js';

export interface CallContext {
  domain: ApiDomain;
  clients: WebhookClientManager;
}

/**
 * Calls the webhook of `invocation` with the request's objects as `versioned` and returns its
 * checked answer. Throws a CallingWebhookError for a failed call (failurePolicy decides), or a
 * StatusError for a dry-run request the webhook may not see.
 */
export async function callWebhook(ctx: CallContext, mutating: boolean, attrs: Attributes, invocation: WebhookInvocation, versioned: VersionedObjects): Promise<AdmissionResponse> {
  const hook = invocation.webhook;
  if (attrs.dryRun) {
    const sideEffects = hook.webhook.sideEffects;
    if (sideEffects === undefined) throw new CallingWebhookError(hook.name, 'Webhook SideEffects is nil', 400);
    if (sideEffects !== 'None' && sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(hook.name);
  }
  const version = negotiateReviewVersion(hook.webhook.admissionReviewVersions);
  if (!version) {
    throw new CallingWebhookError(hook.name, 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)', 400);
  }
  const sent = createAdmissionReview(ctx.domain, version, attrs, invocation, versioned);
  const body = await ctx.clients.post(hook, JSON.stringify(sent.review));
  let decoded: ReturnType<typeof decodeAdmissionReview>;
  try {
    decoded = decodeAdmissionReview(body);
  } catch (e) {
    throw new CallingWebhookError(hook.name, `failed to call webhook: ${e instanceof Error ? e.message : String(e)}`, 400);
  }
  let result: AdmissionResponse;
  try {
    result = verifyAdmissionResponse(ctx.domain, sent, mutating, decoded);
  } catch (e) {
    throw new CallingWebhookError(hook.name, `received invalid webhook response: ${e instanceof Error ? e.message : String(e)}`, 503);
  }
  for (const [k, v] of Object.entries(result.auditAnnotations)) {
    try {
      attrs.addAnnotation(`${hook.name}/${k}`, v);
    } catch {
      // Upstream only logs an annotation it cannot record (a malformed key, a second value).
    }
  }
  for (const w of result.warnings) attrs.warn(w);
  return result;
}

/** Nanosecond clock in seconds, for the webhook latency metrics. */
export function since(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}
