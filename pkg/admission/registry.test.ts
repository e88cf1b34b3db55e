import assert from 'node:assert/strict';
import { test } from 'node:test';
import { handlesOperations, type MutationInterface } from './interfaces.js';
import { PluginInitializationError, PluginRegistry } from './registry.js';
import { staticDeps } from './testing/deps.js';

const deps = staticDeps();

const plugin = (name: string, seen: unknown[]) => (cfg: unknown): MutationInterface => {
  seen.push([name, cfg]);
  return { name, handles: handlesOperations('CREATE'), admit: () => {} };
};

test('the chain holds the named plug-ins in the given order, each made with its configuration', () => {
  const seen: unknown[] = [];
  const reg = new PluginRegistry();
  reg.register('B', plugin('B', seen));
  reg.register('A', plugin('A', seen));
  assert.deepEqual(reg.registered(), ['A', 'B']);
  assert.ok(reg.has('A') && !reg.has('C'));
  const chain = reg.newChain(['B', 'A'], (n) => (n === 'A' ? { x: 1 } : undefined), deps);
  assert.deepEqual(chain.names, ['B', 'A']);
  assert.deepEqual(seen, [['B', undefined], ['A', { x: 1 }]]);
});

test('a name without code, a failing factory and a double registration are refused with upstream\'s wording', () => {
  const reg = new PluginRegistry();
  reg.register('A', plugin('A', []));
  assert.throws(() => reg.register('A', plugin('A', [])), /registered twice/);
  assert.throws(() => reg.newChain(['A', 'Missing'], () => undefined, deps), /^Error: unknown admission plugin: Missing$/);
  reg.register('Bad', () => { throw new Error('limits: Required value'); });
  assert.throws(() => reg.newChain(['Bad'], () => undefined, deps), /^Error: couldn't init admission plugin "Bad": limits: Required value$/);
  reg.register('Invalid', () => { throw new PluginInitializationError('Invalid invalid: x: Required value'); });
  assert.throws(() => reg.newChain(['Invalid'], () => undefined, deps), /^Error: failed to initialize admission plugin "Invalid": Invalid invalid: x: Required value$/);
});
