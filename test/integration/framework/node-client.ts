// @kubernetes/client-node, in process, configured the way its users do: from a kubeconfig file.
import { KubeConfig } from '@kubernetes/client-node';
import type { Kubeconfig } from './kubeconfig.js';

export function loadKubeConfig(kubeconfig: Kubeconfig): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig.path);
  return kc;
}

/** The message, HTTP status and body a client-node ApiException carries, for assertion messages. */
export function describeError(e: unknown): string {
  if (e && typeof e === 'object' && 'code' in e && 'body' in e) {
    const x = e as { code: number; body: unknown; message?: string };
    return `HTTP ${x.code}: ${typeof x.body === 'string' ? x.body : JSON.stringify(x.body)}`;
  }
  return e instanceof Error ? e.stack ?? e.message : String(e);
}
