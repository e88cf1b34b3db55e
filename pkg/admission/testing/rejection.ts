// The refusal of a plug-in call, for plug-in unit tests.
import assert from 'node:assert/strict';
import { isStatusError, type StatusError } from '../../runtime/errors.js';

/** The StatusError `p` rejects with; fails the test when it resolves or rejects with anything else. */
export async function rejection(p: Promise<void>): Promise<StatusError> {
  try {
    await p;
  } catch (e) {
    assert.ok(isStatusError(e), `expected a StatusError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a rejection');
}
