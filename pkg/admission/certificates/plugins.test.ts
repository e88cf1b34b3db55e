import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { StatusError } from '../../runtime/errors.js';
import { createCSR } from '../../util/certificates/csr.js';
import { AttributesRecord } from '../attributes.js';
import { builtinPlugins } from '../builtin.js';
import type { AuthorizationCheck, AuthorizeFunc, Operation } from '../interfaces.js';
import { testUser } from '../testing/attrs.js';
import { CertificateApprovalPlugin } from './approval.js';
import { CertificateSigningPlugin } from './signing.js';
import { CertificateSubjectRestrictionPlugin } from './subject-restriction.js';

const group = 'certificates.orch.io';
const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const request = (organizations: string[]) => Buffer.from(createCSR({ key, commonName: 'x', organizations })).toString('base64');

const csr = (signerName: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name: 'req' }, spec: { signerName, request: request(['dev']), usages: ['client auth'] }, ...extra,
});

function attrs(operation: Operation, subresource: string, object: Record<string, unknown>, oldObject?: Record<string, unknown>): AttributesRecord {
  return new AttributesRecord({
    kind: { group, version: 'v1', kind: 'CertificateSigningRequest' },
    resource: { group, version: 'v1', resource: 'certificatesigningrequests' },
    subresource, operation, name: 'req', userInfo: testUser, object, ...(oldObject ? { oldObject } : {}),
  });
}

/** An authorizer allowing exactly the given `verb name` pairs on signers, recording what it was asked. */
function authorizer(allowed: string[]): { authorize: AuthorizeFunc; asked: AuthorizationCheck[] } {
  const asked: AuthorizationCheck[] = [];
  return {
    asked,
    authorize: async (_user, c) => {
      asked.push(c);
      return { allowed: c.apiGroup === group && c.resource === 'signers' && allowed.includes(`${c.verb} ${c.name}`) };
    },
  };
}

async function refusal(p: Promise<void> | void): Promise<StatusError> {
  try { await p; } catch (e) { assert.ok(e instanceof StatusError); return e; }
  assert.fail('expected a refusal');
}

test('CertificateApproval: approve on the signer name or its domain wildcard', async () => {
  const none = authorizer([]);
  const e = await refusal(new CertificateApprovalPlugin(none.authorize, group).validate(attrs('UPDATE', 'approval', csr('example.com/signer'))));
  assert.equal(e.code, 403);
  assert.equal(e.message, 'certificatesigningrequests.certificates.orch.io "req" is forbidden: user not permitted to approve requests with signerName "example.com/signer"');
  assert.deepEqual(none.asked.map((c) => `${c.verb} ${c.name}`), ['approve example.com/signer', 'approve example.com/*']);
  await new CertificateApprovalPlugin(authorizer(['approve example.com/signer']).authorize, group).validate(attrs('UPDATE', 'approval', csr('example.com/signer')));
  await new CertificateApprovalPlugin(authorizer(['approve example.com/*']).authorize, group).validate(attrs('UPDATE', 'approval', csr('example.com/signer')));
  // Other sub-resources and the main resource are not its business.
  await new CertificateApprovalPlugin(none.authorize, group).validate(attrs('UPDATE', 'status', csr('example.com/signer')));
  await new CertificateApprovalPlugin(none.authorize, group).validate(attrs('UPDATE', '', csr('example.com/signer')));
});

test('CertificateSigning: only a change of status.certificate needs sign, on the stored signer', async () => {
  const none = authorizer([]);
  const old = csr('example.com/signer', { status: { conditions: [{ type: 'Approved', status: 'True' }] } });
  const failed = csr('example.com/signer', { status: { conditions: [{ type: 'Failed', status: 'True' }] } });
  await new CertificateSigningPlugin(none.authorize, group).validate(attrs('UPDATE', 'status', failed, old));
  const issued = csr('example.com/signer', { status: { certificate: 'Y2VydA==' } });
  const e = await refusal(new CertificateSigningPlugin(none.authorize, group).validate(attrs('UPDATE', 'status', issued, old)));
  assert.equal(e.message, 'certificatesigningrequests.certificates.orch.io "req" is forbidden: user not permitted to sign requests with signerName "example.com/signer"');
  await new CertificateSigningPlugin(authorizer(['sign example.com/*']).authorize, group).validate(attrs('UPDATE', 'status', issued, old));
});

test('CertificateSubjectRestriction: no system:masters through the kube-apiserver-client signer', async () => {
  const p = new CertificateSubjectRestrictionPlugin(group, 'orch.io/kube-apiserver-client');
  const masters = csr('orch.io/kube-apiserver-client');
  (masters.spec as Record<string, unknown>).request = request(['dev', 'system:masters']);
  const e = await refusal(p.validate(attrs('CREATE', '', masters)));
  assert.equal(e.message, 'certificatesigningrequests.certificates.orch.io "req" is forbidden: use of orch.io/kube-apiserver-client signer with system:masters group is not allowed');
  await p.validate(attrs('CREATE', '', csr('orch.io/kube-apiserver-client')));
  // Other signers may issue it.
  const other = csr('example.com/signer');
  (other.spec as Record<string, unknown>).request = request(['system:masters']);
  await p.validate(attrs('CREATE', '', other));
});

test('the three plug-ins are built in', () => {
  for (const name of ['CertificateApproval', 'CertificateSigning', 'CertificateSubjectRestriction']) assert.ok(builtinPlugins().has(name), name);
});
