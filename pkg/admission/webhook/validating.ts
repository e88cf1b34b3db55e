// ValidatingAdmissionWebhook (upstream's validating dispatcher): every matching validating
// webhook is called at once with the object as the mutating phase and the registry left it; any
// denial, or a failed call under failurePolicy Fail, rejects the request, the first to arrive
// being the one the client sees.
import { newInternalError } from '../../runtime/errors.js';
import { handlesOperations, type Attributes, type PluginDeps, type ValidationInterface } from '../interfaces.js';
import { callWebhook, since } from './call.js';
import { CallingWebhookError, toStatusError, WebhookRejection } from './errors.js';
import { WebhookCore } from './generic.js';
import { shouldCallHook, type WebhookInvocation } from './match.js';
import { rejectionLogText } from './rejection-text.js';
import { gvkString, versionedObjects, type VersionedObjects } from './versioned-attributes.js';

export const ValidatingAdmissionWebhookName = 'ValidatingAdmissionWebhook';

export class ValidatingWebhookPlugin implements ValidationInterface {
  readonly name = ValidatingAdmissionWebhookName;
  readonly handles = handlesOperations('CONNECT', 'CREATE', 'DELETE', 'UPDATE');
  private readonly core: WebhookCore;

  constructor(configuration: unknown, deps: PluginDeps) {
    this.core = new WebhookCore('validating', configuration, deps);
  }

  async validate(attrs: Attributes): Promise<void> {
    const relevant: WebhookInvocation[] = [];
    // The objects are converted once per kind, whichever webhooks are sent that kind.
    const versioned = new Map<string, VersionedObjects>();
    for (const hook of this.core.hooksFor(attrs)) {
      const invocation = await shouldCallHook(hook, attrs, this.core.matchDeps);
      if (!invocation) continue;
      relevant.push(invocation);
      const key = gvkString(invocation.kind);
      if (!versioned.has(key)) versioned.set(key, versionedObjects(attrs, invocation.kind, this.core.objects));
    }
    if (relevant.length === 0) return;
    const errors: unknown[] = [];
    await Promise.all(relevant.map(async (invocation, idx) => {
      const err = await this.callOne(attrs, invocation, versioned.get(gvkString(invocation.kind))!, idx);
      if (err !== undefined) errors.push(err);
    }));
    if (errors.length > 0) throw errors[0];
  }

  /** Calls one webhook; resolves with the error that rejects the request, or undefined. */
  private async callOne(attrs: Attributes, invocation: WebhookInvocation, versioned: VersionedObjects, idx: number): Promise<unknown> {
    const hook = invocation.webhook;
    const ignore = hook.failurePolicy === 'Ignore';
    const m = this.core.metrics;
    const log = this.core.logger;
    const start = process.hrtime.bigint();
    let err: unknown;
    try {
      const result = await callWebhook(this.core.call, false, attrs, invocation, versioned);
      if (!result.allowed) err = new WebhookRejection(toStatusError(hook.name, result.result));
    } catch (e) {
      err = e;
    }
    const seconds = since(start);
    if (err === undefined) {
      m?.webhook(hook.name, 'validating', attrs.operation, false, 200, seconds);
      return undefined;
    }
    if (err instanceof CallingWebhookError) {
      if (!ignore) m?.webhookRejection(hook.name, 'validating', attrs.operation, 'calling_webhook_error', err.code);
      m?.webhook(hook.name, 'validating', attrs.operation, !ignore, err.code, seconds);
      if (ignore) {
        log?.warnText(`Failed calling webhook, failing open ${hook.name}: ${err.message}`);
        m?.webhookFailOpen(hook.name, 'validating');
        try {
          attrs.addAnnotation(`failed-open.validating.webhook.admission.${this.core.domain.name}/round_0_index_${idx}`, hook.name);
        } catch {
          // an annotation never fails a request
        }
        return undefined;
      }
      log?.warnText(`Failed calling webhook, failing closed ${hook.name}: ${err.message}`);
      return newInternalError(err);
    }
    if (err instanceof WebhookRejection) {
      m?.webhookRejection(hook.name, 'validating', attrs.operation, 'no_error', err.status.code);
      m?.webhook(hook.name, 'validating', attrs.operation, true, err.status.code, seconds);
      err = err.status;
    } else {
      m?.webhookRejection(hook.name, 'validating', attrs.operation, 'apiserver_internal_error', 0);
      m?.webhook(hook.name, 'validating', attrs.operation, true, 0, seconds);
    }
    log?.warnText(rejectionLogText(hook.name, err));
    return err;
  }
}

/** The factory of ValidatingAdmissionWebhook; its configuration is a WebhookAdmissionConfiguration. */
export function validatingAdmissionWebhookFactory(configuration: unknown, deps: PluginDeps): ValidatingWebhookPlugin {
  return new ValidatingWebhookPlugin(configuration, deps);
}
