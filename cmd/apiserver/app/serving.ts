// The serving certificate of the API server: the operator's files, else the self-signed pair kept
// in --cert-dir. With --workers the main thread makes that pair once before starting the worker
// threads, which only read it, so every thread serves the same certificate.
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../../pkg/log/logger.js';
import { ensureSelfSignedCert, loadServingCert, type ServingCert } from '../../../pkg/server/serving-cert.js';
import type { APIServerOptions } from './options.js';

/** The certificate to serve; `generate: false` reads the self-signed pair the main thread made. */
export function servingCertificate(opts: APIServerOptions, logger: Logger, generate = true): ServingCert {
  if (opts.tlsCertFile) return loadServingCert(opts.tlsCertFile, opts.tlsPrivateKeyFile);
  if (!generate) return loadServingCert(join(opts.certDir, 'apiserver.crt'), join(opts.certDir, 'apiserver.key'));
  const c = ensureSelfSignedCert({ certDir: opts.certDir, hosts: [opts.bindAddress, hostname()] });
  logger.info(c.generated ? 'generated self-signed serving certificate' : 'using self-signed serving certificate', { cert: c.certFile, key: c.keyFile });
  return c;
}
