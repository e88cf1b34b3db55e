import assert from 'node:assert/strict';
import { test } from 'node:test';
import { certificateLifetimeMs, certificateValidity, keyUsagesFromStrings } from './signing-policy.js';

const min = 60_000;
const hour = 60 * min;

test('lifetime: the smaller of expirationSeconds and the signing duration, at least 10 minutes', () => {
  assert.equal(certificateLifetimeMs(undefined, 8760 * hour), 8760 * hour);
  assert.equal(certificateLifetimeMs(600, hour), 10 * min);
  assert.equal(certificateLifetimeMs(7200, hour), hour);
  assert.equal(certificateLifetimeMs(3600, hour), hour);
  assert.equal(certificateLifetimeMs(60, hour), 10 * min, 'below the floor (the API refuses it, an old object may hold it)');
  assert.equal(certificateLifetimeMs(60, 5 * min), 10 * min, 'upstream checks the duration first, so the floor wins over a shorter duration');
});

test('validity: backdated 5 minutes; short lifetimes keep the full span from now, long ones end backdated', () => {
  const now = new Date('2030-06-01T12:00:00.000Z');
  const caEnd = new Date('2040-01-01T00:00:00Z');
  const short = certificateValidity(now, 10 * min, caEnd);
  assert.equal(short.notBefore.toISOString(), '2030-06-01T11:55:00.000Z');
  assert.equal(short.notAfter.toISOString(), '2030-06-01T12:10:00.000Z');
  const hourLong = certificateValidity(now, hour, caEnd);
  assert.equal(hourLong.notAfter.toISOString(), '2030-06-01T13:00:00.000Z');
  // 8 hours is not short: the end is backdated by as much as the start.
  const eight = certificateValidity(now, 8 * hour, caEnd);
  assert.equal(eight.notAfter.toISOString(), '2030-06-01T19:55:00.000Z');
  const year = certificateValidity(now, 8760 * hour, caEnd);
  assert.equal(year.notAfter.getTime() - year.notBefore.getTime(), 8760 * hour);
});

test('validity: never past the CA; refused once the CA expired', () => {
  const now = new Date('2030-06-01T12:00:00Z');
  const capped = certificateValidity(now, 8760 * hour, new Date('2030-06-02T00:00:00Z'));
  assert.equal(capped.notAfter.toISOString(), '2030-06-02T00:00:00.000Z');
  assert.throws(() => certificateValidity(now, hour, new Date('2030-06-01T11:00:00Z')), { message: 'the signer has expired: NotAfter=2030-06-01 11:00:00 +0000 UTC' });
  assert.throws(() => certificateValidity(now, hour, new Date('2030-06-01T11:58:00Z')), { message: 'refusing to sign a certificate that expired in the past: NotAfter=2030-06-01 11:58:00 +0000 UTC' });
});

test('usages map to keyUsage bits and extended key usage OIDs in Go order', () => {
  assert.deepEqual(keyUsagesFromStrings(['client auth', 'key encipherment', 'digital signature', 'server auth']), {
    keyUsage: 0b101, extKeyUsages: ['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2'],
  });
  assert.deepEqual(keyUsagesFromStrings(['signing', 'decipher only', 's/mime', 'email protection', 'any']), {
    keyUsage: 1 | (1 << 8), extKeyUsages: ['2.5.29.37.0', '1.3.6.1.5.5.7.3.4'],
  });
  assert.deepEqual(keyUsagesFromStrings([]), { keyUsage: 0, extKeyUsages: [] });
  assert.throws(() => keyUsagesFromStrings(['client auth', 'bogus', 'nope']), { message: 'unrecognized usage values: ["bogus" "nope"]' });
});
