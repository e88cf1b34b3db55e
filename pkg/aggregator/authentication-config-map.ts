// The `extension-apiserver-authentication` ConfigMap in the system namespace, as upstream's API
// server publishes it: the CA of client certificates, and the front proxy's request-header CA,
// header names (JSON arrays) and allowed names, so extension API servers know whom to trust.
import { isDeepStrictEqual } from 'node:util';
import type { Store } from '../registry/generic/store.js';
import type { StoredObject } from '../storage/interface.js';

export interface FrontProxyAuthentication {
  /** PEM of --client-ca-file ('' without it). */
  clientCA: string;
  /** PEM of --requestheader-client-ca-file ('' without it). */
  requestHeaderCA: string;
  usernameHeaders: string[];
  groupHeaders: string[];
  extraHeadersPrefix: string[];
  allowedNames: string[];
}

/** The ConfigMap's data, keyed as upstream's; keys of what is not configured are left out. */
export function authenticationData(a: FrontProxyAuthentication): Record<string, string> {
  const data: Record<string, string> = {};
  if (a.clientCA) data['client-ca-file'] = a.clientCA;
  if (a.requestHeaderCA) {
    data['requestheader-client-ca-file'] = a.requestHeaderCA;
    data['requestheader-username-headers'] = JSON.stringify(a.usernameHeaders);
    data['requestheader-group-headers'] = JSON.stringify(a.groupHeaders);
    data['requestheader-extra-headers-prefix'] = JSON.stringify(a.extraHeadersPrefix);
    data['requestheader-allowed-names'] = JSON.stringify(a.allowedNames);
  }
  return data;
}

const code = (e: unknown) => (e as { code?: number }).code;

/** Creates the ConfigMap or puts its data right; resolves with what it did. */
export async function reconcileAuthenticationConfigMap(configMaps: Store, namespace: string, name: string, data: Record<string, string>): Promise<'created' | 'updated' | 'unchanged'> {
  for (;;) {
    let current: StoredObject | undefined;
    try {
      current = await configMaps.get(namespace, name);
    } catch (e) {
      if (code(e) !== 404) throw e;
    }
    if (!current) {
      try {
        await configMaps.create(namespace, { metadata: { name, namespace }, data } as unknown as StoredObject);
        return 'created';
      } catch (e) {
        if (code(e) === 409) continue;
        throw e;
      }
    }
    if (isDeepStrictEqual((current as { data?: unknown }).data ?? {}, data)) return 'unchanged';
    try {
      await configMaps.update(namespace, name, async () => ({ ...structuredClone(current), data }) as StoredObject);
      return 'updated';
    } catch (e) {
      if (code(e) === 409 || code(e) === 404) continue;
      throw e;
    }
  }
}
