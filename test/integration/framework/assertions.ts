import assert from 'node:assert/strict';
import type { Response } from './client.js';

/** The response is a failure Status with this code and reason. */
export function assertStatus(r: Response, code: number, reason: string, what = ''): void {
  const label = what ? `${what}: ` : '';
  assert.equal(r.status, code, `${label}${r.text}`);
  assert.equal(r.body.kind, 'Status', `${label}${r.text}`);
  assert.equal(r.body.apiVersion, 'v1', label);
  assert.equal(r.body.status, 'Failure', label);
  assert.equal(r.body.code, code, label);
  assert.equal(r.body.reason, reason, label);
  assert.equal(typeof r.body.message, 'string', label);
}

/** The response is a 400 BadRequest Status. */
export function assertBadRequest(r: Response, what = ''): void {
  assertStatus(r, 400, 'BadRequest', what);
}
