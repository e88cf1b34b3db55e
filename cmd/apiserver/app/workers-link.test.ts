import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testOptions } from '../../../test/integration/framework/apiserver.js';
import { workerOptions } from './workers-link.js';

const base = testOptions({ endpoint: 'http://127.0.0.1:2379', dataDir: '', pid: () => undefined, pause: async () => undefined, resume: async () => undefined, freeze: () => undefined, thaw: () => undefined, unreadBytes: () => 0, stop: async () => undefined }, '/tmp/certs');

test('each worker enforces its share of the in-flight limits, so the server keeps the limit it was given', () => {
  const o = workerOptions({ ...base, maxRequestsInflight: 401, maxMutatingRequestsInflight: 0 }, 1, 2);
  assert.equal(o.maxRequestsInflight, 201);
  assert.equal(o.maxMutatingRequestsInflight, 0, '0 stays no limit');
  assert.equal(workerOptions({ ...base, maxRequestsInflight: 1 }, 2, 2).maxRequestsInflight, 1);
});

test('each worker writes its own audit log file; standard output and no log stay as given', () => {
  const audit = (logPath: string) => ({ ...base, audit: { ...base.audit, logPath } });
  assert.equal(workerOptions(audit('/var/log/orch/audit.log'), 2, 2).audit.logPath, '/var/log/orch/audit-worker-2.log');
  assert.equal(workerOptions(audit('/var/log/audit'), 1, 2).audit.logPath, '/var/log/audit-worker-1');
  assert.equal(workerOptions(audit('-'), 1, 2).audit.logPath, '-');
  assert.equal(workerOptions(audit(''), 1, 2).audit.logPath, '');
});
