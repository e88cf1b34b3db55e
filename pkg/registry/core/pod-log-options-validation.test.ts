import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorMessage } from '../../runtime/field-errors.js';
import { validatePodLogOptions } from './pod-log-options-validation.js';

const messages = (opts: Parameters<typeof validatePodLogOptions>[0]) => validatePodLogOptions(opts).map(errorMessage);

test('pods/log options as upstream validates them', () => {
  assert.deepEqual(messages({}), []);
  assert.deepEqual(messages({ tailLines: 0, limitBytes: 1, sinceSeconds: 1 }), []);
  assert.deepEqual(messages({ tailLines: -1 }), ['tailLines: Invalid value: -1: must be greater than or equal to 0']);
  assert.deepEqual(messages({ limitBytes: 0 }), ['limitBytes: Invalid value: 0: must be greater than 0']);
  assert.deepEqual(messages({ sinceSeconds: 0 }), ['sinceSeconds: Invalid value: 0: must be greater than 0']);
  assert.deepEqual(messages({ sinceSeconds: -5, sinceTime: '2026-01-01T00:00:00Z' }), ['[]: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified'],
    'both since options: only the conflict is reported');
  assert.deepEqual(messages({ tailLines: -2, limitBytes: -3, sinceSeconds: -4 }), [
    'tailLines: Invalid value: -2: must be greater than or equal to 0',
    'limitBytes: Invalid value: -3: must be greater than 0',
    'sinceSeconds: Invalid value: -4: must be greater than 0',
  ]);
});
