// The `extension-apiserver-authentication` ConfigMap in the system namespace, as upstream's API
// server publishes it: the CA of client certificates, and the front proxy's request-header CA,
// header names (JSON arrays) and allowed names, so extension API servers know whom to trust.

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
