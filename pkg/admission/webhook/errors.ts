// The two ways a webhook call ends badly, as upstream tells them apart: the call failed (the
// webhook could not be reached, timed out, or answered with something unusable), which
// failurePolicy decides about; or the webhook answered and denied the request, which always
// rejects it, with the webhook's Status passed on to the client.
import { StatusError, type StatusReason } from '../../runtime/errors.js';
import { goQuote } from '../../util/go-quote.js';
import type { WebhookStatus } from './admission-review.js';

/** A failure to get a usable answer from a webhook (upstream's ErrCallingWebhook). */
export class CallingWebhookError extends Error {
  constructor(
    readonly webhookName: string,
    /** What went wrong, worded as upstream; undefined when nothing more is known. */
    readonly reason: string | undefined,
    /** The HTTP code the failure counts as in the metrics: the webhook's own non-2xx code, else 400 (503 for an invalid answer). */
    readonly code: number,
  ) {
    super(reason !== undefined ? `failed calling webhook ${goQuote(webhookName)}: ${reason}` : `failed calling webhook ${goQuote(webhookName)}; no further details available`);
    this.name = 'CallingWebhookError';
  }
}

/** A webhook's denial (upstream's ErrWebhookRejection), carrying the Status the client gets. */
export class WebhookRejection extends Error {
  constructor(readonly status: StatusError) {
    super(status.message);
    this.name = 'WebhookRejection';
  }
}

/**
 * The Status of a denial (upstream's ToStatusErr): the webhook's own Status with a code of at least
 * 400, status Failure, and the message prefixed with which webhook denied the request.
 */
export function toStatusError(webhookName: string, result: WebhookStatus | undefined): StatusError {
  const deniedBy = `admission webhook ${goQuote(webhookName)} denied the request`;
  const r = result ?? {};
  const code = r.code === undefined || r.code < 400 ? 400 : r.code;
  let message: string;
  if (r.message) message = `${deniedBy}: ${r.message}`;
  else if (r.reason) message = `${deniedBy}: ${r.reason}`;
  else message = `${deniedBy} without explanation`;
  // The webhook's reason and details reach the client as it sent them, whatever they are.
  const err = new StatusError(code, (r.reason ?? '') as StatusReason | '', message, r.details as StatusError['status']['details']);
  return err;
}

/** 400 for a dry-run request reaching a webhook that declares side effects (spec 10, rule 4). */
export function dryRunUnsupported(webhookName: string): StatusError {
  return new StatusError(400, 'BadRequest', `admission webhook ${goQuote(webhookName)} does not support dry run`);
}
