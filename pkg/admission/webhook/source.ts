// The webhooks of one kind as the server's cache of their configurations holds them (upstream's
// webhook configuration managers): configurations sorted by name, each one's webhooks in order.
// The cache follows a watch, so a change is seen without a restart; the list is rebuilt only when
// some configuration's resourceVersion changed.
import type { ObjectLister } from '../interfaces.js';
import { webhookAccessor, type WebhookAccessor, type WebhookConfiguration, type WebhookType } from './types.js';

export class WebhookSource {
  private signature = '';
  private hooks: WebhookAccessor[] = [];

  /** `lister` is undefined where nothing serves the configuration kind: there are no webhooks then. */
  constructor(private readonly lister: ObjectLister | undefined, private readonly type: WebhookType) {}

  /** Every webhook, in the order they are dispatched. */
  webhooks(): readonly WebhookAccessor[] {
    const configs = (this.lister?.list() ?? []) as WebhookConfiguration[];
    const sorted = [...configs].sort((a, b) => {
      const an = a.metadata?.name ?? '';
      const bn = b.metadata?.name ?? '';
      return an < bn ? -1 : an > bn ? 1 : 0;
    });
    const signature = sorted.map((c) => `${c.metadata?.name ?? ''}@${c.metadata?.resourceVersion ?? ''}`).join(',');
    if (signature !== this.signature) {
      this.hooks = sorted.flatMap((c) => (c.webhooks ?? []).map((w, i) => webhookAccessor(c.metadata?.name ?? '', i, this.type, w)));
      this.signature = signature;
    }
    return this.hooks;
  }
}
