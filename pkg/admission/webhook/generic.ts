// What both webhook plug-ins are made of (upstream's generic.Webhook): the webhooks of their kind
// from the configuration cache, the caches their matching and service resolution read, the client
// manager with the credentials of the plug-in's configuration, and the metrics.
import type { ApiDomain } from '../../../api/domain.js';
import type { Logger } from '../../log/logger.js';
import type { AdmissionObserver, Attributes, AuthorizeFunc, ObjectInterfaces, ObjectLister, PluginDeps } from '../interfaces.js';
import { AuthenticationInfoResolver, webhookKubeconfigFile } from './authentication-info.js';
import type { CallContext } from './call.js';
import { WebhookClientManager } from './client.js';
import { isExemptAdmissionConfigurationResource, type MatchDeps } from './match.js';
import { ServiceResolver } from './service-resolver.js';
import { WebhookSource } from './source.js';
import type { WebhookAccessor, WebhookType } from './types.js';

const resources: Record<WebhookType, string> = { mutating: 'mutatingwebhookconfigurations', validating: 'validatingwebhookconfigurations' };

export class WebhookCore {
  readonly domain: ApiDomain;
  readonly objects: ObjectInterfaces | undefined;
  readonly metrics: AdmissionObserver | undefined;
  readonly namespaces: ObjectLister | undefined;
  readonly logger: Logger | undefined;
  readonly authorize: AuthorizeFunc | undefined;
  readonly call: CallContext;
  private readonly source: WebhookSource;

  /** Throws (the server refuses to start) for a configuration or credentials file it cannot use. */
  constructor(type: WebhookType, configuration: unknown, deps: PluginDeps) {
    this.domain = deps.domain;
    this.objects = deps.objects;
    this.metrics = deps.metrics;
    this.logger = deps.logger;
    this.authorize = deps.authorize;
    const auth = AuthenticationInfoResolver.fromFile(webhookKubeconfigFile(configuration, deps.domain.name));
    // An unserved configuration kind (--runtime-config) has an always-empty cache: no webhooks.
    this.source = new WebhookSource(deps.lister(deps.domain.group('admissionregistration'), resources[type]), type);
    this.namespaces = deps.lister('', 'namespaces');
    const services = new ServiceResolver(deps.lister('', 'services'), deps.lister('', 'endpoints'));
    this.call = { domain: deps.domain, clients: new WebhookClientManager(auth, services) };
  }

  /** What matching a webhook to a request reads. */
  get matchDeps(): MatchDeps {
    return { objects: this.objects, namespaces: this.namespaces, authorize: this.authorize, logger: this.logger };
  }

  /** The webhooks to dispatch the request to, or none when the request is exempt. */
  hooksFor(attrs: Attributes): readonly WebhookAccessor[] {
    if (isExemptAdmissionConfigurationResource(attrs, this.domain)) return [];
    return this.source.webhooks();
  }
}
