import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testOptions } from '../../../test/integration/framework/apiserver.js';
import type { TestEtcd } from '../../../test/integration/framework/etcd.js';
import { threadOptions } from './thread-link.js';

const etcd = { endpoint: 'http://127.0.0.1:2379', dataDir: '' } as TestEtcd;
const base = testOptions(etcd, '/tmp/certs');

test('each thread enforces its share of the in-flight limits and the audit batch buffer, so the server keeps what it was given', () => {
  const o = threadOptions({ ...base, maxRequestsInflight: 401, maxMutatingRequestsInflight: 0, audit: { ...base.audit, logBatchBufferSize: 10_000 } }, 2);
  assert.equal(o.maxRequestsInflight, 201);
  assert.equal(o.maxMutatingRequestsInflight, 0, '0 stays no limit');
  assert.equal(o.audit.logBatchBufferSize, 5000);
  assert.equal(threadOptions({ ...base, maxRequestsInflight: 1 }, 2).maxRequestsInflight, 1, 'never below 1');
});

test('every thread writes the one audit log the operator named', () => {
  for (const logPath of ['/var/log/orch/audit.log', '-', '']) {
    assert.equal(threadOptions({ ...base, audit: { ...base.audit, logPath } }, 2).audit.logPath, logPath);
  }
});
