// A signer's CA, read from --cluster-signing-*-cert-file/-key-file. Upstream watches the files
// (a dynamic serving content loader) so a rotated CA is used without a restart; here the files
// are read again before every signing — they are small, and a signing is rare — and re-parsed
// when their bytes changed. A new pair that does not load is logged and the last good one kept,
// as upstream's loader does.
import { readFileSync } from 'node:fs';
import type { Logger } from '../../log/logger.js';
import { loadSigningAuthority, type SigningAuthority } from '../../util/certificates/signing-authority.js';

export interface SigningFiles {
  certFile: string;
  keyFile: string;
}

export class CAProvider {
  private cert = '';
  private key = '';
  private authority: SigningAuthority;

  /** Loads the pair now; throws (naming the files) when it does not load, as upstream fails the controller's start. */
  constructor(readonly files: SigningFiles, private readonly logger: Logger) {
    const { cert, key } = this.read();
    this.authority = this.load(cert, key);
    this.cert = cert;
    this.key = key;
  }

  private read(): { cert: string; key: string } {
    return { cert: readFileSync(this.files.certFile, 'utf8'), key: readFileSync(this.files.keyFile, 'utf8') };
  }

  private load(cert: string, key: string): SigningAuthority {
    try {
      return loadSigningAuthority(cert, key);
    } catch (e) {
      throw new Error(`error reading CA cert file "${this.files.certFile}" and key file "${this.files.keyFile}": ${(e as Error).message}`);
    }
  }

  /** The CA as the files hold it now (or the last pair that loaded). */
  current(): SigningAuthority {
    let files: { cert: string; key: string };
    try {
      files = this.read();
    } catch (e) {
      this.logger.error('cannot re-read the signing CA, keeping the loaded one', { certFile: this.files.certFile, keyFile: this.files.keyFile, err: (e as Error).message });
      return this.authority;
    }
    if (files.cert === this.cert && files.key === this.key) return this.authority;
    try {
      this.authority = this.load(files.cert, files.key);
      this.logger.info('loaded a new signing CA', { certFile: this.files.certFile, subject: this.authority.certificate.subject.replace(/\n/g, ', '), notAfter: this.authority.notAfter.toISOString() });
    } catch (e) {
      this.logger.error('the signing CA files changed but do not load, keeping the loaded CA', { err: (e as Error).message });
    }
    // Either way these bytes were looked at: a bad pair is reported once, not on every signing.
    this.cert = files.cert;
    this.key = files.key;
    return this.authority;
  }
}
