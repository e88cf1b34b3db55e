// The client of one API server as one user: typed-enough resource clients from the scheme,
// discovery, and raw calls, all through one transport (one TLS setup, one rate limit, one exec
// plug-in cache). What cmd/controller-manager and every controller are built on.
import { allGroupVersions, groupVersions } from '../../api/index.js';
import { apiDomain } from '../../api/domain.js';
import { Scheme } from '../runtime/scheme.js';
import { ClientCodec, type Json, type WireFormat } from './codec.js';
import { Discovery } from './discovery.js';
import { defaultKubeconfigPath, loadKubeconfig, type KubeconfigOverrides } from './kubeconfig.js';
import { Requester, type WarningHandler } from './requester.js';
import { ResourceClient, type KubeObject } from './resource-client.js';
import type { RestConfig } from './rest-config.js';
import { Transport, type TransportOptions } from './transport.js';

export interface ClientOptions {
  /** The kinds spoken; the default domain's full scheme when absent. */
  scheme?: Scheme;
  /** JSON (the default) or protobuf for every kind the scheme knows. */
  format?: WireFormat;
  transport?: TransportOptions;
  /** Called with each Warning header's text; warnings are dropped when absent. */
  onWarning?: WarningHandler;
}

let defaultScheme: Scheme | undefined;

export class Client {
  readonly scheme: Scheme;
  readonly discovery: Discovery;
  private readonly requester: Requester;
  private readonly transport: Transport;

  constructor(readonly config: RestConfig, options: ClientOptions = {}) {
    this.scheme = options.scheme ?? (defaultScheme ??= new Scheme(allGroupVersions));
    this.transport = new Transport(config, options.transport);
    this.requester = new Requester(this.transport, new ClientCodec(this.scheme, options.format ?? 'json'), options.onWarning);
    this.discovery = new Discovery(this.requester);
  }

  /**
   * A client for kubeconfig `file` ($KUBECONFIG or ~/.kube/config when absent), with the context's
   * namespace; the scheme is built in the given platform domain.
   */
  static fromKubeconfig(file?: string, overrides: KubeconfigOverrides = {}, options: ClientOptions = {}): { client: Client; namespace: string } {
    const loaded = loadKubeconfig(file ?? defaultKubeconfigPath(), overrides);
    const scheme = options.scheme ?? (overrides.domain ? new Scheme(groupVersions(apiDomain(overrides.domain)), apiDomain(overrides.domain)) : undefined);
    return { client: new Client(loaded.config, { ...options, ...(scheme ? { scheme } : {}) }), namespace: loaded.namespace };
  }

  /** The client of a resource; one the scheme does not know (found by discovery) is spoken in JSON. */
  resource<T extends KubeObject = KubeObject>(group: string, version: string, resource: string): ResourceClient<T> {
    return new ResourceClient<T>(this.requester, { group, version, resource }, this.scheme.resource(group, version, resource));
  }

  /** A JSON call to any path (health, version, non-resource URLs); a non-2xx answer is a StatusError. */
  request(method: string, path: string, body?: Json): Promise<Json> {
    return this.requester.call(method, path, body ? { raw: { body: JSON.stringify(body), contentType: 'application/json' } } : {});
  }

  /** Closes the connections; the client is unusable afterwards. */
  close(): void {
    this.transport.close();
  }
}
