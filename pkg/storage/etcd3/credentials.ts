// The client side of etcd's TLS (--etcd-cafile, --etcd-certfile, --etcd-keyfile), in the form the
// etcd3 client hands to gRPC. Every client of one server (the main one and each member's health
// probe) must present the same credentials, or a member that requires client certificates refuses
// some of them.
import type { IOptions } from 'etcd3';

/** PEM contents of the three files; any may be absent. */
export interface EtcdClientTLS {
  /** The CA bundle etcd's serving certificates are verified against; the host's roots when absent. */
  ca?: Buffer;
  /** The client certificate (with its intermediates) and its key, given together. */
  cert?: Buffer;
  key?: Buffer;
}

/** The etcd3 client's `credentials` for `tls`; none when nothing is given (https hosts then use the host's roots). */
export function etcdCredentials(tls: EtcdClientTLS | undefined): Pick<IOptions, 'credentials'> {
  if (!tls || (!tls.ca && !tls.cert && !tls.key)) return {};
  // gRPC's createSsl takes null for "the host's roots"; the etcd3 typing asks for a Buffer.
  const rootCertificate = (tls.ca ?? null) as Buffer;
  return { credentials: { rootCertificate, ...(tls.cert ? { certChain: tls.cert } : {}), ...(tls.key ? { privateKey: tls.key } : {}) } };
}
