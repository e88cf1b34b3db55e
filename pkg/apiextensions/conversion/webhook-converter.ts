// A CustomResourceDefinition's Webhook conversion (upstream's webhookConverter): objects are sent
// in one ConversionReview (the first version of conversionReviewVersions this server speaks) to
// the webhook's URL or Service, verified with its caBundle; the answer must carry the request's
// uid, a Success result and one object per object sent, each in the desired apiVersion and of the
// same kind. Of the metadata, only labels and annotations may change (the rest is restored from
// the object sent, as upstream restores it). Any failure is upstream's 500 naming the webhook.
import { randomUUID } from 'node:crypto';
import type { ApiDomain } from '../../../api/domain.js';
import type { CustomResourceDefinition } from '../../../api/apiextensions/v1/custom-resource-definition.js';
import { newInternalError } from '../../runtime/errors.js';
import type { StoredObject } from '../../storage/interface.js';
import { WebhookClient } from '../../util/webhook/client.js';
import type { WebhookClientConfig } from '../../util/webhook/kubeconfig.js';
import { isJSONObject } from '../../util/webhook/review-answer.js';

/** Upstream's timeout of a conversion call. */
const timeoutMs = 30_000;
const maxResponseBytes = 10 * 1024 * 1024;
const reviewVersions = ['v1', 'v1beta1'];

/** Where a Service-backed webhook is reached (the server's endpoint resolver). */
export type ServiceEndpointResolver = (namespace: string, name: string, port: number) => Promise<{ host: string; port: number }>;

export class WebhookConverter {
  private readonly client: WebhookClient;
  private readonly reviewAPIVersion: string;
  private readonly service: { namespace: string; name: string; port: number } | undefined;
  private readonly shown: string;

  /** The converter of `crd`, whose spec.conversion is a valid Webhook conversion. */
  constructor(crd: CustomResourceDefinition, domain: ApiDomain, private readonly resolve: ServiceEndpointResolver | undefined) {
    const webhook = crd.spec.conversion!.webhook!;
    const cc = webhook.clientConfig!;
    const version = (webhook.conversionReviewVersions ?? []).find((v) => reviewVersions.includes(v)) ?? 'v1';
    this.reviewAPIVersion = `${domain.group('apiextensions')}/${version}`;
    const timeout = `timeout=${timeoutMs / 1000}s`;
    let cfg: WebhookClientConfig;
    if (cc.service) {
      const port = cc.service.port ?? 443;
      const serverName = `${cc.service.name}.${cc.service.namespace}.svc`;
      const path = cc.service.path ?? '/';
      this.shown = `https://${serverName}:${port}${path.startsWith('/') ? path : `/${path}`}`;
      this.service = { namespace: cc.service.namespace, name: cc.service.name, port };
      cfg = { server: `${this.shown}?${timeout}`, insecureSkipTLSVerify: false, serverName };
    } else {
      const url = cc.url ?? '';
      this.shown = url;
      cfg = { server: `${url}${url.includes('?') ? '&' : '?'}${timeout}`, insecureSkipTLSVerify: false };
    }
    if (cc.caBundle) cfg.ca = Buffer.from(cc.caBundle, 'base64').toString('utf8');
    this.client = new WebhookClient(cfg, { userAgent: 'orch-apiserver-conversion' });
  }

  /** `objects` in `desiredAPIVersion`; those already in it are not sent. */
  async convert(objects: readonly StoredObject[], desiredAPIVersion: string): Promise<StoredObject[]> {
    const todo = objects.filter((o) => o.apiVersion !== desiredAPIVersion);
    if (todo.length === 0) return [...objects];
    const from = todo[0]!;
    const fail = (why: string) => newInternalError(new Error(`conversion webhook for ${from.apiVersion ?? ''}, Kind=${from.kind ?? ''} failed: ${why}`));
    const uid = randomUUID();
    const review = { apiVersion: this.reviewAPIVersion, kind: 'ConversionReview', request: { uid, desiredAPIVersion, objects: todo } };
    let body: string;
    try {
      const connectTo = this.service ? await this.endpoint() : undefined;
      body = (await this.client.post(JSON.stringify(review), { timeoutMs, maxResponseBytes, secret: '', timeoutKind: 'context', ...(connectTo ? { connectTo } : {}) })).body;
    } catch (e) {
      throw fail(`Post ${JSON.stringify(this.shown)}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const converted = this.read(body, uid, todo, desiredAPIVersion, fail);
    let i = 0;
    return objects.map((o) => (o.apiVersion === desiredAPIVersion ? o : converted[i++]!));
  }

  /** Closes the client's idle connections; in-flight calls finish. */
  close(): void {
    this.client.close();
  }

  private async endpoint(): Promise<{ host: string; port: number }> {
    const s = this.service!;
    if (!this.resolve) throw new Error(`service "${s.namespace}/${s.name}" cannot be resolved by this server`);
    return this.resolve(s.namespace, s.name, s.port);
  }

  private read(body: string, uid: string, sent: readonly StoredObject[], desired: string, fail: (why: string) => Error): StoredObject[] {
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch (e) {
      throw fail(`unmarshal response: ${e instanceof Error ? e.message : String(e)}`);
    }
    const response = isJSONObject(doc) && isJSONObject(doc.response) ? doc.response : undefined;
    if (!response) throw fail('no response provided');
    if (response.uid !== uid) throw fail(`expected response uid ${JSON.stringify(uid)}, got ${JSON.stringify(response.uid ?? '')}`);
    const result = isJSONObject(response.result) ? response.result : {};
    if (result.status !== 'Success') throw fail(typeof result.message === 'string' && result.message ? result.message : 'conversion failed');
    const objects = Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
    if (objects.length !== sent.length) throw fail(`returned ${objects.length} objects, expected ${sent.length}`);
    return objects.map((o, i) => {
      const original = sent[i]!;
      if (!isJSONObject(o)) throw fail(`invalid converted object at index ${i}`);
      if (o.apiVersion !== desired) throw fail(`invalid converted object at index ${i}: invalid apiVersion ${JSON.stringify(o.apiVersion ?? '')}, expected ${JSON.stringify(desired)}`);
      if (o.kind !== original.kind) throw fail(`invalid converted object at index ${i}: invalid kind ${JSON.stringify(o.kind ?? '')}, expected ${JSON.stringify(original.kind)}`);
      const meta = isJSONObject(o.metadata) ? o.metadata : {};
      const metadata = { ...original.metadata };
      for (const k of ['labels', 'annotations'] as const) {
        if (meta[k] === undefined) delete metadata[k];
        else if (isJSONObject(meta[k]) && Object.values(meta[k]).every((v) => typeof v === 'string')) metadata[k] = meta[k] as Record<string, string>;
        else throw fail(`invalid converted object at index ${i}: invalid metadata.${k}`);
      }
      return { ...o, metadata } as StoredObject;
    });
  }
}
