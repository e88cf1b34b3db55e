// The establishing controller (upstream's EstablishingController): a definition whose names are
// accepted becomes Established (InitialNamesAccepted), which puts it in discovery and OpenAPI;
// one whose conversion webhook's caBundle holds no certificate stays not Established (InvalidCABundle).
import { X509Certificate } from 'node:crypto';
import type { CustomResourceDefinition } from '../../../api/apiextensions/v1/custom-resource-definition.js';
import type { Logger } from '../../log/logger.js';
import type { ObjectCache } from '../../registry/generic/object-cache.js';
import type { Store } from '../../registry/generic/store.js';
import { isConditionTrue, setCondition } from '../conditions.js';
import { changeDefinition } from './definition-writes.js';
import { KeyQueue } from './key-queue.js';

/** Whether a base64 PEM bundle holds certificates that parse. */
function validCABundle(bundle: string | undefined): boolean {
  const pem = Buffer.from(bundle ?? '', 'base64').toString('utf8');
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) return false;
  try {
    for (const b of blocks) new X509Certificate(b);
    return true;
  } catch {
    return false;
  }
}

export class EstablishingController {
  private readonly queue: KeyQueue;

  /**
   * `written` hears the revision of each definition this controller establishes, before any
   * client can read it (the custom resource registry raises its threads' watermark with it).
   */
  constructor(private readonly cache: ObjectCache, private readonly store: Store, logger: Logger, private readonly written?: (revision: number) => void) {
    this.queue = new KeyQueue((name) => this.sync(name), (name, err) => logger.warn('establishing controller could not sync a CustomResourceDefinition', {
      name, err: err instanceof Error ? err.message : String(err),
    }));
  }

  start(): void {
    this.cache.subscribe((type, obj) => {
      if (type !== 'DELETED') this.queue.add(obj.metadata.name ?? '');
    });
  }

  stop(): void {
    this.queue.stop();
  }

  private async sync(name: string): Promise<void> {
    const cached = this.cache.get('', name) as unknown as CustomResourceDefinition | undefined;
    if (!cached || !isConditionTrue(cached, 'NamesAccepted') || isConditionTrue(cached, 'Established')) return;
    const done = await changeDefinition(this.store, name, (crd) => {
      if (!isConditionTrue(crd, 'NamesAccepted') || isConditionTrue(crd, 'Established')) return undefined;
      const clientConfig = crd.spec.conversion?.webhook?.clientConfig;
      if (clientConfig?.caBundle && !validCABundle(clientConfig.caBundle)) {
        setCondition(crd, { type: 'Established', status: 'False', reason: 'InvalidCABundle', message: 'The conversion webhook CABundle is invalid' });
      } else {
        setCondition(crd, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
      }
      return crd;
    });
    if (done) this.written?.(Number(done.metadata?.resourceVersion ?? 0));
  }
}
