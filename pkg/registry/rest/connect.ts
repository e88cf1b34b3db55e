// The registry's half of a CONNECT sub-resource (upstream's rest.Connecter): given the admitted
// options, where the request is proxied to. The endpoints layer does the proxying.
import type { ProxyTarget } from '../../util/proxy/upgrade-aware.js';

export interface ConnectRequest {
  namespace: string;
  /** The name in the URL (a proxy's may be `name:port` or `scheme:name:port`). */
  name: string;
  /** The admitted options (PodExecOptions, ...). */
  options: Record<string, unknown>;
}

/** Where a CONNECT request goes; `upgradeRequired` for the streaming sub-resources. */
export interface ConnectTarget extends ProxyTarget {
  upgradeRequired: boolean;
}

export type Connecter = (req: ConnectRequest) => Promise<ConnectTarget>;
