import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinPlugins } from '../builtin.js';
import type { AdmissionObject } from '../interfaces.js';
import { podAttrs } from '../testing/attrs.js';
import { refusal } from '../testing/refusal.js';
import { DenyServiceExternalIPs } from './plugin.js';

const p = new DenyServiceExternalIPs();
const svc = (externalIPs?: string[]): AdmissionObject => ({ metadata: { name: 'web' }, spec: { ports: [{ port: 80 }], ...(externalIPs ? { externalIPs } : {}) } });
const attrs = (object: AdmissionObject, oldObject?: AdmissionObject, over: { subresource?: string; resource?: string } = {}) => podAttrs({
  kind: { group: '', version: 'v1', kind: 'Service' },
  resource: { group: '', version: 'v1', resource: over.resource ?? 'services' },
  subresource: over.subresource ?? '',
  name: 'web',
  operation: oldObject ? 'UPDATE' : 'CREATE',
  object,
  ...(oldObject ? { oldObject } : {}),
});

test('registered; validates creates and updates', () => {
  assert.ok(builtinPlugins().has('DenyServiceExternalIPs'));
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const).map((o) => p.handles(o)), [true, true, false, false]);
});

test('a new external IP is refused on create and on update, with upstream\'s message', async () => {
  for (const a of [attrs(svc(['192.0.2.1'])), attrs(svc(['192.0.2.1', '192.0.2.2']), svc(['192.0.2.1'])), attrs(svc(['192.0.2.9']), svc())]) {
    const e = await refusal(() => p.validate(a));
    assert.equal(e.code, 403);
    assert.equal(e.message, 'services "web" is forbidden: Use of external IPs is denied by admission control');
  }
});

test('none, the same ones, fewer, or other resources pass', () => {
  p.validate(attrs(svc()));
  p.validate(attrs(svc([])));
  p.validate(attrs(svc(['192.0.2.2', '192.0.2.1']), svc(['192.0.2.1', '192.0.2.2'])));
  p.validate(attrs(svc(['192.0.2.1']), svc(['192.0.2.1', '192.0.2.2'])));
  p.validate(attrs(svc(), svc(['192.0.2.1'])));
  p.validate(attrs(svc(['192.0.2.1']), undefined, { subresource: 'status' }));
  p.validate(attrs(svc(['192.0.2.1']), undefined, { resource: 'endpoints' }));
});
