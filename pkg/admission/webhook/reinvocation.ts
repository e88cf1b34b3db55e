// What the mutating webhooks remember between the chain's first pass and its re-invocation
// (upstream's webhookReinvokeContext): which IfNeeded webhooks ran before a later change to the
// object, so only those are called again, and the object as the webhooks last left it, so a change
// made by the built-in plug-ins in between is noticed.
import { isDeepStrictEqual } from 'node:util';
import type { AdmissionObject } from '../interfaces.js';

export class WebhookReinvokeContext {
  private lastOutput: AdmissionObject | undefined;
  private previouslyInvoked = new Set<string>();
  private readonly reinvoke = new Set<string>();

  shouldReinvokeWebhook(uid: string): boolean {
    return this.reinvoke.has(uid);
  }

  isOutputChangedSinceLastWebhookInvocation(object: AdmissionObject | undefined): boolean {
    return !isDeepStrictEqual(this.lastOutput, object);
  }

  setLastWebhookInvocationOutput(object: AdmissionObject | undefined): void {
    // The copy is only ever compared to decide whether previously invoked webhooks run again; with
    // none (no webhook matched, the usual case) that decision changes nothing, so no copy is made.
    this.lastOutput = object === undefined || this.previouslyInvoked.size === 0 ? undefined : structuredClone(object);
  }

  addReinvocableWebhookToPreviouslyInvoked(uid: string): void {
    this.previouslyInvoked.add(uid);
  }

  /** The IfNeeded webhooks that ran so far are to run again: something changed the object after them. */
  requireReinvokingPreviouslyInvokedPlugins(): void {
    for (const uid of this.previouslyInvoked) this.reinvoke.add(uid);
    this.previouslyInvoked = new Set();
  }
}
