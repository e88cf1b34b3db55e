// The StatusError a plug-in refuses with, for plug-in unit tests.
import assert from 'node:assert/strict';
import { StatusError } from '../../runtime/errors.js';

/** What `run` throws (or rejects with); fails the test when it does not refuse with a StatusError. */
export async function refusal(run: () => unknown): Promise<StatusError> {
  try {
    await run();
  } catch (e) {
    assert.ok(e instanceof StatusError, `expected a StatusError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a refusal');
}
