import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../runtime/errors.js';
import { AttributesRecord, type AttributesInit } from './attributes.js';
import { AdmissionChain, requestReinvocation } from './chain.js';
import { aggregateMessage, AggregateError, newAdmissionForbidden, newAdmissionNotFound, newAggregate, rejectedName } from './errors.js';
import { handlesOperations, type Attributes, type MutationInterface, type Operation, type ValidationInterface } from './interfaces.js';

const user = { name: 'jane', groups: ['system:authenticated'], extra: {} };
const init = (over: Partial<AttributesInit> = {}): AttributesInit => ({
  kind: { group: '', version: 'v1', kind: 'Pod' },
  resource: { group: '', version: 'v1', resource: 'pods' },
  namespace: 'ns',
  operation: 'CREATE',
  object: { metadata: { name: 'p' } },
  userInfo: user,
  ...over,
});
const attrs = (over: Partial<AttributesInit> = {}) => new AttributesRecord(init(over));

function mutator(name: string, log: string[], fn: (a: Attributes) => void = () => {}, ops: Operation[] = ['CREATE', 'UPDATE']): MutationInterface {
  return { name, handles: handlesOperations(...ops), admit: (a) => { log.push(`admit:${name}`); fn(a); } };
}
function validator(name: string, log: string[], fn: (a: Attributes) => void = () => {}, ops: Operation[] = ['CREATE', 'UPDATE']): ValidationInterface {
  return { name, handles: handlesOperations(...ops), validate: (a) => { log.push(`validate:${name}`); fn(a); } };
}

test('mutating plug-ins run in order in admit, validating ones in validate; a plug-in that is both runs in each', async () => {
  const log: string[] = [];
  const both = { name: 'Both', handles: () => true, admit: () => { log.push('admit:Both'); }, validate: () => { log.push('validate:Both'); } };
  const chain = new AdmissionChain([mutator('A', log), validator('V1', log), both, mutator('B', log), validator('V2', log)]);
  const a = attrs();
  await chain.admit(a);
  assert.deepEqual(log, ['admit:A', 'admit:Both', 'admit:B']);
  log.length = 0;
  await chain.validate(a);
  assert.deepEqual(log, ['validate:V1', 'validate:Both', 'validate:V2']);
  assert.deepEqual(chain.names, ['A', 'V1', 'Both', 'B', 'V2']);
});

test('plug-ins that do not handle the operation are skipped; handles() reports any', async () => {
  const log: string[] = [];
  const chain = new AdmissionChain([mutator('A', log, undefined, ['CREATE']), mutator('D', log, undefined, ['DELETE']), validator('V', log, undefined, ['DELETE'])]);
  await chain.admit(attrs({ operation: 'DELETE', object: undefined }));
  await chain.validate(attrs({ operation: 'DELETE', object: undefined }));
  assert.deepEqual(log, ['admit:D', 'validate:V']);
  assert.equal(chain.handles('CONNECT'), false);
  assert.equal(chain.handles('DELETE'), true);
});

test('the first rejection stops the phase and keeps its StatusError', async () => {
  const log: string[] = [];
  const quota = new StatusError(403, 'Forbidden', 'pods "p" is forbidden: exceeded quota: q');
  const chain = new AdmissionChain([validator('A', log), validator('B', log, () => { throw quota; }), validator('C', log)]);
  await assert.rejects(chain.validate(attrs()), (e) => e === quota);
  assert.deepEqual(log, ['validate:A', 'validate:B']);
  const notFound = new AdmissionChain([mutator('NS', log, (a) => { throw newAdmissionNotFound(a); })]);
  await assert.rejects(notFound.admit(attrs({ resource: { group: '', version: 'v1', resource: 'namespaces' }, name: 'gone' })), (e: StatusError) => {
    assert.equal(e.code, 404);
    assert.equal(e.status.message, 'namespaces "gone" not found');
    return true;
  });
});

test('a bare error from a plug-in becomes upstream\'s admission Forbidden naming the object', async () => {
  const chain = new AdmissionChain([mutator('X', [], () => { throw new Error('no overhead allowed'); })]);
  await assert.rejects(chain.admit(attrs({ resource: { group: 'apps', version: 'v1', resource: 'statefulsets' } })), (e: StatusError) => {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 403);
    assert.equal(e.reason, 'Forbidden');
    assert.equal(e.status.message, 'statefulsets.apps "p" is forbidden: no overhead allowed');
    assert.deepEqual(e.status.details, { name: 'p', group: 'apps', kind: 'statefulsets' });
    return true;
  });
  const rejectsAsync = new AdmissionChain([validator('Y', [], () => { throw 'plain string'; })]);
  await assert.rejects(rejectsAsync.validate(attrs()), /pods "p" is forbidden: plain string/);
});

test('the rejected name: request name, else metadata.name, else generateName, else Unknown', () => {
  assert.equal(rejectedName(attrs({ name: 'req' })), 'req');
  assert.equal(rejectedName(attrs()), 'p');
  assert.equal(rejectedName(attrs({ object: { metadata: { generateName: 'web-' } } })), 'web-');
  assert.equal(rejectedName(attrs({ object: { metadata: {} } })), 'Unknown');
  assert.equal(rejectedName(attrs({ object: undefined })), 'Unknown');
  assert.equal(rejectedName(attrs({ object: { spec: {} } })), 'Unknown/errorGettingName');
});

test('a Forbidden is not wrapped twice; an empty resource says just forbidden', () => {
  const a = attrs();
  const inner = newAdmissionForbidden(a, 'nope');
  assert.equal(newAdmissionForbidden(a, inner), inner);
  const none = attrs({ resource: { group: '', version: '', resource: '' } });
  assert.equal(newAdmissionForbidden(none, 'nope').status.message, 'forbidden: nope');
});

test('aggregated errors: one is itself, several are bracketed, duplicates and nesting flattened', () => {
  assert.equal(newAggregate([]), undefined);
  assert.equal(aggregateMessage([new Error('a')]), 'a');
  assert.equal(aggregateMessage([new Error('a'), new Error('b')]), '[a, b]');
  assert.equal(aggregateMessage([new Error('a'), new Error('a')]), 'a');
  assert.equal(aggregateMessage([new Error('a'), new AggregateError([new Error('b'), new Error('a')]), new Error('c')]), '[a, b, c]');
  assert.equal(newAdmissionForbidden(attrs(), newAggregate([new Error('x'), new Error('y')])!).status.message, 'pods "p" is forbidden: [x, y]');
});

test('a plug-in that changed the object and asked for it gets the mutating phase run once more', async () => {
  const log: string[] = [];
  let webhookCalls = 0;
  const builtin = mutator('Builtin', log, (a) => {
    const meta = a.object!['metadata'] as Record<string, unknown>;
    meta['labels'] = { ...(meta['labels'] as object), seen: String(a.reinvocation.isReinvoke()) };
  });
  const webhook = mutator('Webhook', log, (a) => {
    webhookCalls++;
    if (webhookCalls === 1) {
      a.setObject({ metadata: { name: 'p', labels: { patched: 'yes' } } });
      requestReinvocation(a);
    } else {
      requestReinvocation(a); // asking again in the second pass never causes a third
    }
  });
  const chain = new AdmissionChain([builtin, webhook]);
  const a = attrs();
  await chain.admit(a);
  assert.deepEqual(log, ['admit:Builtin', 'admit:Webhook', 'admit:Builtin', 'admit:Webhook']);
  assert.deepEqual(a.object, { metadata: { name: 'p', labels: { patched: 'yes', seen: 'true' } } });
  assert.equal(a.reinvocation.isReinvoke(), true);
});

test('without a request the mutating phase runs once; reinvocation values are kept per plug-in', async () => {
  const log: string[] = [];
  const a = attrs();
  await new AdmissionChain([mutator('A', log, (x) => x.reinvocation.setValue('A', { ran: 1 }))]).admit(a);
  assert.deepEqual(log, ['admit:A']);
  assert.deepEqual(a.reinvocation.value('A'), { ran: 1 });
  assert.equal(a.reinvocation.value('B'), undefined);
  assert.equal(a.reinvocation.shouldReinvoke(), false);
});

test('async plug-ins are awaited in order', async () => {
  const log: string[] = [];
  const slow: MutationInterface = { name: 'Slow', handles: () => true, admit: async () => { await new Promise((r) => setImmediate(r)); log.push('slow'); } };
  await new AdmissionChain([slow, mutator('Fast', log)]).admit(attrs());
  assert.deepEqual(log, ['slow', 'admit:Fast']);
});

test('annotations: qualified keys only, the same value again is fine, a different one is refused', () => {
  const a = attrs();
  a.addAnnotation('runtimeclass.admission.example.io/handler', 'runc');
  a.addAnnotation('runtimeclass.admission.example.io/handler', 'runc');
  assert.throws(() => a.addAnnotation('runtimeclass.admission.example.io/handler', 'kata'), /not allowed to be overwritten/);
  assert.throws(() => a.addAnnotation('no-prefix', 'v'), /annotation key has invalid format/);
  assert.throws(() => a.addAnnotation('a/b/c', 'v'), /annotation key has invalid format/);
  assert.throws(() => a.addAnnotation('Upper.Case/k', 'v'), /prefix part/);
  assert.throws(() => a.addAnnotation('ok.io/-bad', 'v'), /name part/);
  assert.deepEqual(a.annotations(), { 'runtimeclass.admission.example.io/handler': 'runc' });
  a.addAnnotationWithLevel('patch.webhook.admission.example.io/round_0_index_0', '{}', 'Request');
  assert.deepEqual(Object.keys(a.annotations('Metadata')), ['runtimeclass.admission.example.io/handler']);
  assert.equal(Object.keys(a.annotations('Request')).length, 2);
});

test('attributes default the optional fields as upstream leaves them empty', () => {
  const a = new AttributesRecord({ kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' }, operation: 'DELETE', userInfo: user });
  assert.equal(a.name, '');
  assert.equal(a.namespace, '');
  assert.equal(a.subresource, '');
  assert.equal(a.dryRun, false);
  assert.equal(a.object, undefined);
  assert.equal(a.oldObject, undefined);
});
