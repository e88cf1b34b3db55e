import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { signDetached, verifyDetached } from './jws.js';

const token = { tokenId: 'abcdef', tokenSecret: '0123456789abcdef' };
const payload = 'apiVersion: v1\nkind: Config\n';
const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');

test('the signature is a detached HS256 JWS keyed with the full token, kid the token id', async () => {
  const sig = await signDetached(payload, token);
  const [header, content, mac] = sig.split('.');
  assert.equal(content, '');
  assert.deepEqual(JSON.parse(Buffer.from(header!, 'base64url').toString()), { alg: 'HS256', kid: 'abcdef' });
  // Computed here independently: HMAC-SHA256 over `header.base64url(payload)` with `<id>.<secret>`.
  const expected = createHmac('sha256', 'abcdef.0123456789abcdef').update(`${header}.${b64url(payload)}`).digest('base64url');
  assert.equal(mac, expected);
  assert.equal(await signDetached(payload, token), sig, 'deterministic');
  assert.deepEqual(await verifyDetached(sig, payload, token), { valid: true });
  assert.deepEqual(await verifyDetached(sig, Buffer.from(payload), token), { valid: true });
});

test('verification refuses a changed payload, another token, the secret alone and a non-detached JWS', async () => {
  const sig = await signDetached(payload, token);
  assert.equal((await verifyDetached(sig, payload + ' ', token)).valid, false);
  assert.equal((await verifyDetached(sig, payload, { ...token, tokenSecret: 'fedcba9876543210' })).valid, false);
  assert.equal((await verifyDetached(sig, payload, { ...token, tokenId: 'zzzzzz' })).valid, false);
  // Upstream's key (the secret alone) is not ours.
  const [header] = sig.split('.');
  const upstream = createHmac('sha256', token.tokenSecret).update(`${header}.${b64url(payload)}`).digest('base64url');
  assert.equal((await verifyDetached(`${header}..${upstream}`, payload, token)).valid, false);
  const attached = sig.replace('..', `.${b64url(payload)}.`);
  assert.equal((await verifyDetached(attached, payload, token)).valid, false);
  assert.equal((await verifyDetached('garbage', payload, token)).valid, false);
  assert.equal((await verifyDetached('!!..!!', payload, token)).valid, false);
});

test('only HS256 is accepted: none and other HMACs are refused even with a correct MAC', async () => {
  const key = `${token.tokenId}.${token.tokenSecret}`;
  const forge = (alg: string, hash: string) => {
    const header = b64url(JSON.stringify({ alg, kid: token.tokenId }));
    const mac = hash ? createHmac(hash, key).update(`${header}.${b64url(payload)}`).digest('base64url') : '';
    return `${header}..${mac}`;
  };
  for (const [alg, hash] of [['none', ''], ['HS384', 'sha384'], ['HS512', 'sha512'], ['hs256', 'sha256']] as const) {
    const r = await verifyDetached(forge(alg, hash), payload, token);
    assert.equal(r.valid, false, alg);
    assert.ok(!r.valid && !r.reason.includes(token.tokenSecret));
  }
  assert.equal((await verifyDetached(forge('HS256', 'sha256'), payload, token)).valid, true, 'the same construction with HS256 verifies');
});
