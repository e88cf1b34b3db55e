// Test support: real signing keys, in the PEM encodings operators hand the API server, written to
// a temporary directory that is removed at the end of the test.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type KeyKind = 'rsa' | 'P-256' | 'P-384' | 'P-521';

export interface TestKeyPair {
  kind: KeyKind;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** `RSA PRIVATE KEY` (PKCS#1) or `EC PRIVATE KEY` (SEC1), as openssl genrsa / ecparam write them. */
  privatePem: string;
  /** `PRIVATE KEY` (PKCS#8). */
  pkcs8Pem: string;
  /** `PUBLIC KEY` (PKIX). */
  publicPem: string;
}

/** A fresh key pair: RSA 2048 or ECDSA on the named curve. */
export function generateTestKeyPair(kind: KeyKind): TestKeyPair {
  const { privateKey, publicKey } =
    kind === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: kind });
  return {
    kind,
    privateKey,
    publicKey,
    privatePem: privateKey.export({ type: kind === 'rsa' ? 'pkcs1' : 'sec1', format: 'pem' }).toString(),
    pkcs8Pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** A temporary directory; `write` puts a file in it and returns its path, `remove` deletes it all. */
export function tempFiles(prefix = 'orch-keys-'): { dir: string; write(name: string, content: string | Buffer): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    write(name, content) {
      const path = join(dir, name);
      writeFileSync(path, content, { mode: 0o600 });
      return path;
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
