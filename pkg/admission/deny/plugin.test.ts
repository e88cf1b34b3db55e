import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Logger } from '../../log/logger.js';
import { builtinPlugins } from '../builtin.js';
import { isMutating, isValidating, Operations } from '../interfaces.js';
import { podAttrs } from '../testing/attrs.js';
import { staticDeps } from '../testing/deps.js';
import { refusal } from '../testing/refusal.js';
import { alwaysDenyFactory } from './plugin.js';

test('AlwaysDeny refuses every operation in both phases with upstream\'s message, and warns that it is deprecated', async () => {
  assert.ok(builtinPlugins().has('AlwaysDeny'));
  const lines: string[] = [];
  const p = alwaysDenyFactory(undefined, { ...staticDeps(), logger: new Logger(0, (l) => lines.push(l)) });
  assert.ok(isMutating(p) && isValidating(p));
  for (const operation of Operations) {
    assert.ok(p.handles(operation), operation);
    const attrs = podAttrs({ operation, name: 'p', object: { metadata: { name: 'p' } } });
    for (const phase of [() => p.admit(attrs), () => p.validate(attrs)]) {
      const e = await refusal(phase);
      assert.equal(e.code, 403);
      assert.equal(e.reason, 'Forbidden');
      assert.equal(e.message, 'pods "p" is forbidden: admission control is denying all modifications');
    }
  }
  assert.match(lines.join(''), /AlwaysDeny admission controller is deprecated/);
});
