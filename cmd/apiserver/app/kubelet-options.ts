// How the server reaches node agents for exec, attach, port-forward and node proxies: the
// --kubelet-* flags, named and defaulted as kube-apiserver's are.
import type { Argv } from 'yargs';
import { defaultPreferredAddressTypes, type KubeletConnection } from '../../../pkg/registry/core/connect-locations.js';
import { parseDuration } from '../../../pkg/util/duration.js';
import { readFlagFile } from './flag-file.js';

const group = 'Kubelet client:';
const knownAddressTypes = new Set(['Hostname', 'InternalIP', 'ExternalIP', 'InternalDNS', 'ExternalDNS']);

export interface KubeletOptions {
  clientCertificate: string;
  clientKey: string;
  certificateAuthority: string;
  preferredAddressTypes: string[];
  /** --kubelet-timeout as given. */
  timeout: string;
}

export function kubeletFlags<T>(y: Argv<T>) {
  return y
    .option('kubelet-client-certificate', { type: 'string', default: '', describe: 'Path to a client cert file for TLS.', group })
    .option('kubelet-client-key', { type: 'string', default: '', describe: 'Path to a client key file for TLS.', group })
    .option('kubelet-certificate-authority', { type: 'string', default: '', describe: 'Path to a cert file for the certificate authority.', group })
    .option('kubelet-preferred-address-types', { type: 'string', array: true, default: defaultPreferredAddressTypes, describe: 'List of the preferred NodeAddressTypes to use for kubelet connections.', group })
    .option('kubelet-timeout', { type: 'string', default: '5s', describe: 'Timeout for kubelet operations.', group });
}

export function kubeletOptionsFrom(p: Record<string, unknown>): KubeletOptions {
  const types = (p['kubelet-preferred-address-types'] as string[]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
  return {
    clientCertificate: String(p['kubelet-client-certificate'] ?? ''),
    clientKey: String(p['kubelet-client-key'] ?? ''),
    certificateAuthority: String(p['kubelet-certificate-authority'] ?? ''),
    preferredAddressTypes: types,
    timeout: String(p['kubelet-timeout'] ?? '5s'),
  };
}

export function validateKubeletOptions(o: KubeletOptions): string[] {
  const errs: string[] = [];
  if (o.preferredAddressTypes.length === 0) errs.push('--kubelet-preferred-address-types must be specified');
  const bad = o.preferredAddressTypes.filter((t) => !knownAddressTypes.has(t));
  if (bad.length > 0) errs.push(`--kubelet-preferred-address-types contains invalid value(s): [${bad.join(' ')}]`);
  if (!!o.clientCertificate !== !!o.clientKey) errs.push('--kubelet-client-certificate and --kubelet-client-key must be given together');
  try {
    if (parseDuration(o.timeout) <= 0) errs.push('--kubelet-timeout must be greater than 0');
  } catch (e) {
    errs.push(`--kubelet-timeout: ${(e as Error).message}`);
  }
  return errs;
}

/** The connection settings, with the certificate files read; a file that cannot be read stops the start. */
export function kubeletConnection(o: KubeletOptions): KubeletConnection {
  const read = (flag: string, file: string) => readFlagFile(flag, file).toString('utf8');
  return {
    port: 10250,
    preferredAddressTypes: o.preferredAddressTypes,
    tls: {
      ...(o.certificateAuthority ? { ca: read('kubelet-certificate-authority', o.certificateAuthority) } : {}),
      ...(o.clientCertificate ? { cert: read('kubelet-client-certificate', o.clientCertificate), key: read('kubelet-client-key', o.clientKey) } : {}),
    },
    timeoutMs: parseDuration(o.timeout),
  };
}

/** The options with every flag at its default. */
export function defaultKubeletOptions(): KubeletOptions {
  return { clientCertificate: '', clientKey: '', certificateAuthority: '', preferredAddressTypes: [...defaultPreferredAddressTypes], timeout: '5s' };
}
