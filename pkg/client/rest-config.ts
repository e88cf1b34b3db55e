// What a client needs to reach one API server as one user: client-go's rest.Config. Built from a
// kubeconfig (kubeconfig.ts) or by hand (in-process tests, a controller given a token).
import type { ExecConfig } from './exec-config.js';

/** The controller manager's defaults for --kube-api-qps and --kube-api-burst. */
export const defaultQPS = 20;
export const defaultBurst = 30;

/** The cluster as an exec plug-in with provideClusterInfo sees it (ExecCredential spec.cluster). */
export interface ExecClusterInfo {
  server: string;
  tlsServerName?: string;
  insecureSkipTLSVerify?: boolean;
  /** PEM; sent to the plug-in base64-encoded, as Go's []byte. */
  certificateAuthorityData?: string;
  proxyURL?: string;
  /** The cluster's `client.authentication.<domain>/exec` extension. */
  config?: unknown;
}

/** Holds credentials: never log it. */
export interface RestConfig {
  /** `https://host:port`, optionally with a path prefix the API is served below. */
  server: string;
  /** PEM bundle the serving certificate is verified against; the host's roots when absent. */
  caData?: string;
  insecureSkipTLSVerify?: boolean;
  /** The name the serving certificate is verified for, instead of the URL's host. */
  tlsServerName?: string;
  /** PEM client certificate (may hold intermediates) and key. */
  certData?: string;
  keyData?: string;
  bearerToken?: string;
  /** Read again at most once a minute, so a rotated token is picked up. */
  bearerTokenFile?: string;
  username?: string;
  password?: string;
  exec?: ExecConfig;
  /** Given to the exec plug-in when exec.provideClusterInfo is set. */
  execCluster?: ExecClusterInfo;
  /** Requests per second allowed on average; negative disables the client-side limit. */
  qps?: number;
  /** Requests allowed at once above qps. */
  burst?: number;
  userAgent?: string;
  /** Per-request timeout for non-watch requests, in milliseconds; none when 0 or absent. */
  timeoutMs?: number;
}

/** The config without its user (client-go's AnonymousClientConfig): where and how to connect, no credentials. */
export function anonymousConfig(c: RestConfig): RestConfig {
  const { server, caData, insecureSkipTLSVerify, tlsServerName, qps, burst, userAgent, timeoutMs } = c;
  return {
    server,
    ...(caData !== undefined ? { caData } : {}),
    ...(insecureSkipTLSVerify !== undefined ? { insecureSkipTLSVerify } : {}),
    ...(tlsServerName !== undefined ? { tlsServerName } : {}),
    ...(qps !== undefined ? { qps } : {}),
    ...(burst !== undefined ? { burst } : {}),
    ...(userAgent !== undefined ? { userAgent } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}
