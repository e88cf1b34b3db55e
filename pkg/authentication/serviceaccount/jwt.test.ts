import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeBase64url } from '../jwt-encoding.js';
import { parseCompactJws, publicClaims, timeProblem, unverifiedIssuer } from './jwt.js';

const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

test('base64url is read without padding or foreign characters', () => {
  assert.equal(decodeBase64url('aGk')!.toString(), 'hi');
  assert.equal(decodeBase64url('')!.length, 0);
  for (const bad of ['aGk=', 'a+b/', 'a b', 'abcde']) assert.equal(decodeBase64url(bad), undefined, bad);
});

test('the unverified issuer is read from compact tokens only', () => {
  assert.equal(unverifiedIssuer(`${enc({ alg: 'RS256' })}.${enc({ iss: 'https://a' })}.sig`), 'https://a');
  assert.equal(unverifiedIssuer(`${enc({ alg: 'RS256' })}.${enc({ iss: 7 })}.sig`), undefined);
  assert.equal(unverifiedIssuer(`${enc({ alg: 'RS256' })}.${enc(['https://a'])}.sig`), undefined);
  assert.equal(unverifiedIssuer(`${enc({ alg: 'RS256' })}.${enc({ iss: 'https://a' })}`), undefined);
  assert.equal(unverifiedIssuer(` {"payload":"x"}`), undefined);
});

test('only allowed asymmetric algorithms parse', () => {
  const token = (h: object) => `${enc(h)}.${enc({})}.c2ln`;
  assert.deepEqual(parseCompactJws(token({ alg: 'ES384', kid: 'k' })), { alg: 'ES384', kid: 'k' });
  assert.deepEqual(parseCompactJws(token({ alg: 'PS256' })), { alg: 'PS256', kid: '' });
  for (const alg of ['none', 'HS256', 'EdDSA', 'rs256', '', 5]) assert.equal(parseCompactJws(token({ alg })), undefined, String(alg));
  assert.equal(parseCompactJws(token({ alg: 'RS256', kid: 5 })), undefined);
  assert.equal(parseCompactJws(`${enc({ alg: 'RS256' })}.${enc({})}.c2ln=`), undefined);
});

test('registered claims keep go-jose types; times are whole seconds', () => {
  assert.deepEqual(publicClaims({ iss: 'i', aud: 'a', exp: 10.9, nbf: null }), { iss: 'i', sub: '', aud: ['a'], jti: '', exp: 10 });
  assert.deepEqual(publicClaims({ aud: ['a', 'b'], iat: 5 }).aud, ['a', 'b']);
  for (const bad of [{ aud: [1] }, { aud: {} }, { exp: '1' }, { iss: 1 }, { jti: false }]) assert.throws(() => publicClaims(bad), Error, JSON.stringify(bad));
});

test('times are judged with the leeway: nbf, then exp, then iat', () => {
  const c = { iss: '', sub: '', aud: [], jti: '' };
  assert.equal(timeProblem({ ...c, exp: 100 }, 160), undefined);
  assert.equal(timeProblem({ ...c, exp: 100 }, 160.5), 'expired');
  assert.equal(timeProblem({ ...c, nbf: 100 }, 40), undefined);
  assert.equal(timeProblem({ ...c, nbf: 100 }, 39), 'not-yet-valid');
  assert.equal(timeProblem({ ...c, iat: 100 }, 39), 'issued-in-the-future');
  assert.equal(timeProblem({ ...c, nbf: 1000, exp: 10 }, 500), 'not-yet-valid');
});
