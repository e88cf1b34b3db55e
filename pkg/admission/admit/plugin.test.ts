import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Logger } from '../../log/logger.js';
import { builtinPlugins } from '../builtin.js';
import { isMutating, isValidating, Operations } from '../interfaces.js';
import { podAttrs } from '../testing/attrs.js';
import { staticDeps } from '../testing/deps.js';
import { alwaysAdmitFactory } from './plugin.js';

test('AlwaysAdmit is registered, handles every operation, admits everything and warns that it is deprecated', async () => {
  assert.ok(builtinPlugins().has('AlwaysAdmit'));
  const lines: string[] = [];
  const p = alwaysAdmitFactory(undefined, { ...staticDeps(), logger: new Logger(0, (l) => lines.push(l)) });
  assert.equal(p.name, 'AlwaysAdmit');
  assert.ok(isMutating(p) && isValidating(p));
  for (const operation of Operations) {
    assert.ok(p.handles(operation), operation);
    const attrs = podAttrs({ operation, object: { metadata: { name: 'p' } } });
    await p.admit(attrs);
    await p.validate(attrs);
  }
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /^W.*"AlwaysAdmit admission controller is deprecated. Please remove this controller from your configuration files and scripts."/);
});
