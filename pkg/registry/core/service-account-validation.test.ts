import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceAccount } from '../../../api/core/v1/service-account.js';
import { createErrors, type KindUnderTest } from '../testing/kind-check.js';
import { serviceAccountValidation } from './service-account-validation.js';

const kind: KindUnderTest<ServiceAccount> = { schema: ServiceAccount, validation: serviceAccountValidation };

test('service accounts have DNS subdomain names and references', () => {
  assert.deepEqual(serviceAccountValidation.name('builder.ci', false), []);
  assert.ok(serviceAccountValidation.name('Builder', false).length > 0);
  const sa = {
    apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'default' },
    secrets: [{ name: 'token' }], imagePullSecrets: [{ name: 'registry' }], automountServiceAccountToken: false,
  };
  assert.deepEqual(createErrors(kind, sa), []);
});
