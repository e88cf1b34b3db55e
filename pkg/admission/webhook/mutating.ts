// MutatingAdmissionWebhook (upstream's mutating dispatcher): the matching mutating webhooks are
// called one after another in order, each seeing the object as the ones before it left it; a
// JSONPatch answer is applied, the result decoded as its kind (unknown fields dropped, defaults
// applied) and made the request's object. A change asks the chain for its second pass, in which
// the built-in plug-ins run again and IfNeeded webhooks are called again if something changed the
// object after them. Each call is recorded in the audit annotations of spec 6.2.
import { isDeepStrictEqual } from 'node:util';
import { applyJSONPatch } from '../../patch/json-patch.js';
import { newInternalError } from '../../runtime/errors.js';
import { requestReinvocation } from '../chain.js';
import { handlesOperations, type AdmissionObject, type Attributes, type MutationInterface, type PluginDeps } from '../interfaces.js';
import { callWebhook, since } from './call.js';
import { CallingWebhookError, toStatusError, WebhookRejection } from './errors.js';
import { WebhookCore } from './generic.js';
import { shouldCallHook, type WebhookInvocation } from './match.js';
import { WebhookReinvokeContext } from './reinvocation.js';
import { sameKind, versionedObjects } from './versioned-attributes.js';

export const MutatingAdmissionWebhookName = 'MutatingAdmissionWebhook';

/** A JSON patch operation with its keys in the order Go writes a map's: sorted. */
function sortedKeys(op: unknown): unknown {
  if (typeof op !== 'object' || op === null || Array.isArray(op)) return op;
  return Object.fromEntries(Object.entries(op).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Records one call in the audit annotations (upstream's webhookAnnotator). */
class Annotator {
  private readonly suffix: string;
  constructor(private readonly attrs: Attributes, private readonly domain: string, round: number, index: number, private readonly webhook: string, private readonly configuration: string) {
    this.suffix = `round_${round}_index_${index}`;
  }

  private add(key: string, value: string, level: 'Metadata' | 'Request'): void {
    try {
      this.attrs.addAnnotationWithLevel(key, value, level);
    } catch {
      // Upstream logs and goes on: an annotation never fails a request.
    }
  }

  mutation(mutated: boolean): void {
    this.add(`mutation.webhook.admission.${this.domain}/${this.suffix}`, JSON.stringify({ configuration: this.configuration, webhook: this.webhook, mutated }), 'Metadata');
  }

  /** Recorded from audit level Request on: the patch may carry the object's data. */
  patch(operations: unknown[]): void {
    this.add(`patch.webhook.admission.${this.domain}/${this.suffix}`, JSON.stringify({ configuration: this.configuration, webhook: this.webhook, patch: operations.map(sortedKeys), patchType: 'JSONPatch' }), 'Request');
  }

  failedOpen(): void {
    this.add(`failed-open.mutation.webhook.admission.${this.domain}/${this.suffix}`, this.webhook, 'Metadata');
  }
}

export class MutatingWebhookPlugin implements MutationInterface {
  readonly name = MutatingAdmissionWebhookName;
  readonly handles = handlesOperations('CONNECT', 'CREATE', 'DELETE', 'UPDATE');
  private readonly core: WebhookCore;

  constructor(configuration: unknown, deps: PluginDeps) {
    this.core = new WebhookCore('mutating', configuration, deps);
  }

  async admit(attrs: Attributes): Promise<void> {
    const hooks = this.core.hooksFor(attrs);
    const rc = attrs.reinvocation;
    let wrc = rc.value(this.name) as WebhookReinvokeContext | undefined;
    if (!wrc) {
      wrc = new WebhookReinvokeContext();
      rc.setValue(this.name, wrc);
    }
    // The built-in plug-ins changed the object in the second pass: the IfNeeded webhooks must see it.
    if (rc.isReinvoke() && wrc.isOutputChangedSinceLastWebhookInvocation(attrs.object)) wrc.requireReinvokingPreviouslyInvokedPlugins();
    try {
      for (const [i, hook] of hooks.entries()) {
        const invocation = await shouldCallHook(hook, attrs, this.core.matchDeps);
        if (!invocation) continue;
        // A second pass calls only webhooks due again; one skipped in the first pass is never called first now.
        if (rc.isReinvoke() && !wrc.shouldReinvokeWebhook(hook.uid)) continue;
        const round = rc.isReinvoke() ? 1 : 0;
        const annotator = new Annotator(attrs, this.core.domain.name, round, i, hook.name, hook.configurationName);
        const ignore = hook.failurePolicy === 'Ignore';
        const start = process.hrtime.bigint();
        let changed = false;
        let err: unknown;
        try {
          changed = await this.call(attrs, invocation, annotator);
        } catch (e) {
          err = e;
        }
        this.observe(hook.name, attrs, err, ignore, since(start));
        if (changed) {
          wrc.requireReinvokingPreviouslyInvokedPlugins();
          requestReinvocation(attrs);
        }
        if (hook.reinvocationPolicy === 'IfNeeded') wrc.addReinvocableWebhookToPreviouslyInvoked(hook.uid);
        if (err === undefined) continue;
        if (err instanceof CallingWebhookError) {
          if (ignore) {
            this.core.logger?.warnText(`Failed calling webhook, failing open ${hook.name}: ${err.message}`);
            this.core.metrics?.webhookFailOpen(hook.name, 'admit');
            annotator.failedOpen();
            continue;
          }
          this.core.logger?.warnText(`Failed calling webhook, failing closed ${hook.name}: ${err.message}`);
          throw newInternalError(err);
        }
        if (err instanceof WebhookRejection) throw err.status;
        throw err;
      }
    } finally {
      wrc.setLastWebhookInvocationOutput(attrs.object);
    }
  }

  private observe(name: string, attrs: Attributes, err: unknown, ignore: boolean, seconds: number): void {
    const m = this.core.metrics;
    if (!m) return;
    if (err === undefined) {
      m.webhook(name, 'admit', attrs.operation, false, 200, seconds);
    } else if (err instanceof CallingWebhookError) {
      if (!ignore) m.webhookRejection(name, 'admit', attrs.operation, 'calling_webhook_error', err.code);
      m.webhook(name, 'admit', attrs.operation, !ignore, err.code, seconds);
    } else if (err instanceof WebhookRejection) {
      m.webhookRejection(name, 'admit', attrs.operation, 'no_error', err.status.code);
      m.webhook(name, 'admit', attrs.operation, true, err.status.code, seconds);
    } else {
      m.webhookRejection(name, 'admit', attrs.operation, 'apiserver_internal_error', 0);
      m.webhook(name, 'admit', attrs.operation, true, 0, seconds);
    }
  }

  /** Calls one webhook and applies its patch; true when the object changed. */
  private async call(attrs: Attributes, invocation: WebhookInvocation, annotator: Annotator): Promise<boolean> {
    const hook = invocation.webhook;
    const objects = this.core.objects;
    let changed = false;
    try {
      const versioned = versionedObjects(attrs, invocation.kind, objects);
      const result = await callWebhook(this.core.call, true, attrs, invocation, versioned);
      if (!result.allowed) throw new WebhookRejection(toStatusError(hook.name, result.result));
      if (!result.patch) return false;
      let operations: unknown;
      try {
        operations = JSON.parse(result.patch.toString('utf8'));
      } catch (e) {
        throw newInternalError(e);
      }
      if (!Array.isArray(operations)) throw newInternalError('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
      if (operations.length === 0) return false;
      if (!versioned.object) {
        throw newInternalError(`admission webhook ${JSON.stringify(hook.name)} attempted to modify the object, which is not supported for this operation`);
      }
      if (result.patchType !== 'JSONPatch') {
        throw new CallingWebhookError(hook.name, `unsupported patch type ${JSON.stringify(result.patchType)}`, toStatusError(hook.name, result.result).code);
      }
      let patched: AdmissionObject;
      try {
        patched = applyJSONPatch(versioned.object, operations) as AdmissionObject;
        // As upstream decodes the patched JSON into its kind: the result must be an object of it.
        if (objects) patched = objects.decode(patched, invocation.kind);
      } catch (e) {
        throw newInternalError(e);
      }
      changed = !isDeepStrictEqual(versioned.object, patched);
      annotator.patch(operations);
      attrs.setObject(sameKind(invocation.kind, attrs.kind) ? patched : this.convertBack(patched, invocation, attrs));
      return changed;
    } finally {
      annotator.mutation(changed);
    }
  }

  private convertBack(obj: AdmissionObject, invocation: WebhookInvocation, attrs: Attributes): AdmissionObject {
    try {
      return this.core.objects!.convert(obj, invocation.kind, attrs.kind);
    } catch (e) {
      throw newInternalError(e);
    }
  }
}

/** The factory of MutatingAdmissionWebhook; its configuration is a WebhookAdmissionConfiguration. */
export function mutatingAdmissionWebhookFactory(configuration: unknown, deps: PluginDeps): MutatingWebhookPlugin {
  return new MutatingWebhookPlugin(configuration, deps);
}
