import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { createCSR, parseCSR } from '../../util/certificates/csr.js';
import { issueCertificate, requestSubjectAndKey } from '../../util/certificates/issue.js';
import { keyIdentifier, type SigningAuthority } from '../../util/certificates/signing-authority.js';
import type { CSR, CSRCondition } from '../certificate-requests.js';
import { cleanupReason } from './cleanup.js';

const now = new Date('2031-03-01T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const min = 60_000;
const hour = 60 * min;

/** A certificate (base64 of PEM, as status.certificate) valid until `notAfter`. */
function certificate(notAfter: Date): string {
  const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
  const parsed = parseCSR(createCSR({ key, commonName: 'x' }));
  assert.ok(parsed.ok);
  const parts = requestSubjectAndKey(parsed.csr.raw);
  const ca: SigningAuthority = { certificate: undefined as never, privateKey: key, rawSubject: parts.rawSubject, keyId: keyIdentifier(parts.rawPublicKey), notAfter };
  const pem = issueCertificate(ca, { ...parts, dnsNames: [], emailAddresses: [], ipAddresses: [], uris: [] }, ['client auth'], { notBefore: new Date(notAfter.getTime() - 48 * hour), notAfter });
  return Buffer.from(pem).toString('base64');
}

const csr = (created: string, conditions: CSRCondition[], cert?: string): CSR => ({
  metadata: { name: 'c', creationTimestamp: created },
  spec: {},
  status: { conditions, ...(cert ? { certificate: cert } : {}) },
});
const cond = (type: string, updated: string): CSRCondition => ({ type, status: 'True', lastUpdateTime: updated });

test('the cleaner table (upstream cleaner_test cases)', () => {
  const valid = certificate(new Date(now.getTime() + 24 * hour));
  const expired = certificate(new Date(now.getTime() - min));
  const cases: [string, CSR, boolean][] = [
    ['pending, just created', csr(ago(5 * min), []), false],
    ['pending 23 hours', csr(ago(23 * hour), []), false],
    ['pending 25 hours', csr(ago(25 * hour), []), true],
    ['approved and issued 5 minutes ago', csr(ago(25 * hour), [cond('Approved', ago(5 * min))], valid), false],
    ['approved and issued 2 hours ago', csr(ago(25 * hour), [cond('Approved', ago(2 * hour))], valid), true],
    ['approved 2 hours ago, never issued', csr(ago(25 * hour), [cond('Approved', ago(2 * hour))]), false],
    ['approved without lastUpdateTime', csr(ago(25 * hour), [{ type: 'Approved', status: 'True' }], valid), false],
    ['denied 5 minutes ago', csr(ago(25 * hour), [cond('Denied', ago(5 * min))]), false],
    ['denied 2 hours ago', csr(ago(2 * hour), [cond('Denied', ago(2 * hour))]), true],
    ['failed 5 minutes ago', csr(ago(25 * hour), [cond('Approved', ago(5 * min)), cond('Failed', ago(5 * min))]), false],
    ['failed 2 hours ago', csr(ago(3 * hour), [cond('Approved', ago(2 * hour)), cond('Failed', ago(2 * hour))]), true],
    ['approved recently, certificate expired', csr(ago(5 * min), [cond('Approved', ago(5 * min))], expired), true],
    ['certificate expired but not approved', csr(ago(5 * min), [cond('Denied', ago(5 * min))], expired), false],
  ];
  for (const [name, c, deleted] of cases) assert.equal(cleanupReason(c, now) !== undefined, deleted, name);
  assert.equal(cleanupReason(csr(ago(25 * hour), []), now), 'it has been pending for more than 24h0m0s');
  assert.equal(cleanupReason(csr(ago(5 * min), [cond('Approved', ago(5 * min))], expired), now), 'its certificate has expired');
});

test('an unreadable certificate keeps the request and says why', () => {
  assert.throws(() => cleanupReason(csr(ago(25 * hour), [cond('Approved', ago(2 * hour))], Buffer.from('junk').toString('base64')), now), {
    message: 'expected the certificate associated with the CSR to be PEM encoded',
  });
});
