import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Lifecycle } from './lifecycle.js';

const results = async (l: Lifecycle, livez: boolean) =>
  Promise.all(l.hookChecks(livez).map(async (c) => [c.name, await c.check()] as const));

test('an unfinished post-start hook fails readyz, and livez only after the grace period', async () => {
  let release!: () => void;
  const l = new Lifecycle([{ name: 'slow', run: () => new Promise<void>((r) => (release = r)) }], 150);
  const running = l.runPostStartHooks(() => undefined);
  assert.deepEqual(await results(l, false), [['poststarthook/slow', 'not finished']]);
  assert.deepEqual(await results(l, true), [['poststarthook/slow', undefined]], 'within the grace period livez trusts the hook');
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(await results(l, true), [['poststarthook/slow', 'not finished']], 'after it, livez reports it');
  release();
  await running;
  assert.deepEqual(await results(l, false), [['poststarthook/slow', undefined]]);
  assert.deepEqual(await results(l, true), [['poststarthook/slow', undefined]]);
});

test('a failed hook reports its error; shutdown fails only the shutdown check', async () => {
  const errors: string[] = [];
  const l = new Lifecycle([{ name: 'broken', run: async () => { throw new Error('no etcd'); } }], 0);
  await l.runPostStartHooks((name) => errors.push(name));
  assert.deepEqual(errors, ['broken']);
  assert.deepEqual(await results(l, false), [['poststarthook/broken', 'no etcd']]);
  assert.equal(await l.shutdownCheck().check(), undefined);
  l.beginShutdown();
  assert.equal(await l.shutdownCheck().check(), 'process is shutting down');
});
