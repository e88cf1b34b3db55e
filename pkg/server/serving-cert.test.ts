import assert from 'node:assert/strict';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import forge from 'node-forge';
import { ensureSelfSignedCert } from './serving-cert.js';

test('the self-signed certificate covers the hosts, is reused, and encodes its CN as UTF8String for Go clients', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cert-test-'));
  try {
    const first = ensureSelfSignedCert({ certDir: dir, hosts: ['127.0.0.1', 'api.example'] });
    assert.equal(first.generated, true);
    const x = new X509Certificate(first.cert);
    assert.ok(x.checkHost('localhost') && x.checkHost('api.example') && x.checkIP('127.0.0.1'));
    assert.ok(x.checkPrivateKey(createPrivateKey(first.key)));
    const cn = forge.pki.certificateFromPem(first.cert).subject.getField('CN') as { valueTagClass: number; value: string };
    assert.equal(cn.valueTagClass, forge.asn1.Type.UTF8);
    assert.match(cn.value, /@\d+$/);
    const again = ensureSelfSignedCert({ certDir: dir, hosts: ['127.0.0.1', 'api.example'] });
    assert.equal(again.generated, false);
    assert.equal(again.cert, first.cert);
    const wider = ensureSelfSignedCert({ certDir: dir, hosts: ['10.1.2.3'] });
    assert.equal(wider.generated, true, 'a certificate not covering a new address is made again');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
