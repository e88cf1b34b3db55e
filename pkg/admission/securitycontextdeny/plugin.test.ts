import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../runtime/errors.js';
import { podAttrs } from '../testing/attrs.js';
import { securityContextDenyFactory, SecurityContextDenyPlugin } from './plugin.js';

const p = new SecurityContextDenyPlugin();
const pod = (spec: Record<string, unknown>, name = 'p') => ({ metadata: name ? { name } : { generateName: 'p-' }, spec: { containers: [{ name: 'c' }], ...spec } });

function refusal(run: () => void): StatusError {
  try { run(); } catch (e) { assert.ok(e instanceof StatusError); return e; }
  assert.fail('expected a refusal');
}

test('each denied field is refused with upstream\'s message, on create and update', () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ securityContext: { supplementalGroups: [1] } }, 'SecurityContext.SupplementalGroups is forbidden'],
    [{ securityContext: { supplementalGroups: [] } }, 'SecurityContext.SupplementalGroups is forbidden'],
    [{ securityContext: { seLinuxOptions: { level: 's0' } } }, 'pod.Spec.SecurityContext.SELinuxOptions is forbidden'],
    [{ securityContext: { runAsUser: 0 } }, 'pod.Spec.SecurityContext.RunAsUser is forbidden'],
    [{ securityContext: { fsGroup: 2000 } }, 'SecurityContext.FSGroup is forbidden'],
    [{ initContainers: [{ name: 'i', securityContext: { seLinuxOptions: {} } }] }, 'SecurityContext.SELinuxOptions is forbidden'],
    [{ initContainers: [{ name: 'i', securityContext: { runAsUser: 1 } }] }, 'SecurityContext.RunAsUser is forbidden'],
    [{ containers: [{ name: 'c', securityContext: { seLinuxOptions: {} } }] }, 'SecurityContext.SELinuxOptions is forbidden'],
    [{ containers: [{ name: 'c', securityContext: { runAsUser: 1000 } }] }, 'SecurityContext.RunAsUser is forbidden'],
  ];
  for (const [spec, msg] of cases) {
    for (const operation of ['CREATE', 'UPDATE'] as const) {
      const obj = pod(spec);
      const e = refusal(() => p.validate(podAttrs({ operation, object: obj, ...(operation === 'UPDATE' ? { oldObject: obj } : {}) })));
      assert.equal(e.code, 403);
      assert.equal(e.reason, 'Forbidden');
      assert.equal(e.message, `pods "p" is forbidden: ${msg}`);
    }
  }
});

test('the pod-level fields are checked in upstream order', () => {
  const e = refusal(() => p.validate(podAttrs({ object: pod({ securityContext: { fsGroup: 1, runAsUser: 1, supplementalGroups: [1] } }) })));
  assert.match(e.message, /SupplementalGroups is forbidden$/);
  const f = refusal(() => p.validate(podAttrs({ object: pod({ securityContext: { fsGroup: 1, runAsUser: 1 } }) })));
  assert.match(f.message, /pod.Spec.SecurityContext.RunAsUser is forbidden$/);
});

test('a pod named only by generateName is refused as "pods is forbidden"', () => {
  const e = refusal(() => p.validate(podAttrs({ object: pod({ securityContext: { runAsUser: 1 } }, '') })));
  assert.equal(e.message, 'pods is forbidden: pod.Spec.SecurityContext.RunAsUser is forbidden');
});

test('other security settings, ephemeral containers, sub-resources and other resources pass', () => {
  p.validate(podAttrs({ object: pod({ securityContext: { runAsNonRoot: true, runAsGroup: 5 }, containers: [{ name: 'c', securityContext: { privileged: true, runAsGroup: 3 } }] }) }));
  p.validate(podAttrs({ object: pod({ ephemeralContainers: [{ name: 'e', securityContext: { runAsUser: 0 } }] }) }));
  const bad = pod({ securityContext: { runAsUser: 0 } });
  p.validate(podAttrs({ operation: 'UPDATE', subresource: 'status', object: bad, oldObject: bad }));
  p.validate(podAttrs({ resource: { group: '', version: 'v1', resource: 'podtemplates' }, object: bad }));
  assert.ok(p.handles('CREATE') && p.handles('UPDATE') && !p.handles('DELETE') && !p.handles('CONNECT'));
  assert.equal(securityContextDenyFactory(undefined, { domain: undefined as never, lister: () => undefined }).name, 'SecurityContextDeny');
});
