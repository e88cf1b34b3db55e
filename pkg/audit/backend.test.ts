import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Logger } from '../log/logger.js';
import { BatchBackend, eventString, LogBackend, type LineSink } from './backend.js';
import { AuditContext } from './context.js';
import type { Event } from './types.js';

function event(over: Partial<Event> = {}): Event {
  return {
    kind: 'Event', apiVersion: 'audit.orch.io/v1', level: 'Metadata', auditID: 'id-1', stage: 'ResponseComplete', requestURI: '/api/v1/namespaces/ns/pods?limit=1',
    verb: 'list', user: { username: 'jane', groups: ['devs', 'system:authenticated'] }, sourceIPs: ['10.0.0.1', '127.0.0.1'], userAgent: 'kubectl/v1.30',
    objectRef: { resource: 'pods', namespace: 'ns', apiVersion: 'v1' }, responseStatus: { metadata: {}, code: 200 },
    requestReceivedTimestamp: '2024-01-02T03:04:05.120000Z', stageTimestamp: '2024-01-02T03:04:05.130000Z', ...over,
  };
}

function logger(lines: string[]): Logger {
  return new Logger(0, (l) => lines.push(l));
}

test('the legacy line is upstream\'s EventString', () => {
  assert.equal(eventString(event()),
    '2024-01-02T03:04:05.12Z AUDIT: id="id-1" stage="ResponseComplete" ip="10.0.0.1" method="list" user="jane" groups="\\"devs\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl/v1.30" namespace="ns" uri="/api/v1/namespaces/ns/pods?limit=1" response="200"');
  const bare = eventString(event({ user: {}, impersonatedUser: { username: 'kim', groups: ['qa'] }, sourceIPs: undefined, objectRef: undefined, responseStatus: undefined, requestReceivedTimestamp: '2024-01-02T03:04:05.000000Z' }));
  assert.match(bare, /^2024-01-02T03:04:05Z AUDIT: .* ip="<unknown>" .* user="<none>" groups="<none>" as="kim" asgroups="\\"qa\\"" .* namespace="<none>" .* response="<deferred>"$/);
});

test('json lines are the event; a write that fails is reported, counted and answered false, never thrown', () => {
  const written: string[] = [];
  let fail = false;
  const sink: LineSink = { write: (l) => { if (fail) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }); written.push(l); }, close: () => undefined };
  const logs: string[] = [];
  const errors: [string, number][] = [];
  const b = new LogBackend({ format: 'json', apiVersion: 'audit.orch.io/v1', sink, logger: logger(logs), observer: { pluginError: (p, n) => errors.push([p, n]) } });
  assert.equal(b.process(event()), true);
  assert.deepEqual(JSON.parse(written[0]!), event());
  assert.ok(written[0]!.endsWith('}\n'));
  fail = true;
  assert.equal(b.process(event()), false);
  assert.deepEqual(errors, [['log', 1]]);
  assert.match(logs.join(''), /Error in audit plugin 'log' affecting 1 audit events.*ENOSPC/);
});

test('batch mode writes off the request path, and drops (and reports) what its buffer cannot hold', async () => {
  const written: string[] = [];
  const errors: [string, number][] = [];
  const observer = { pluginError: (p: string, n: number) => errors.push([p, n]) };
  const log = new LogBackend({ format: 'json', apiVersion: 'audit.orch.io/v1', sink: { write: (l) => void written.push(l), close: () => undefined }, logger: logger([]), observer });
  const b = new BatchBackend(log, { bufferSize: 2, maxBatchSize: 1, maxBatchWaitMs: 0 }, logger([]), observer);
  for (const id of ['a', 'b', 'c']) assert.equal(b.process(event({ auditID: id })), true);
  assert.equal(written.length, 0, 'nothing written while the request runs');
  assert.deepEqual(errors, [['buffered', 1]]);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(written.map((l) => JSON.parse(l).auditID), ['a', 'b']);
  b.process(event({ auditID: 'd' }));
  await b.shutdown();
  assert.deepEqual(written.map((l) => JSON.parse(l).auditID), ['a', 'b', 'd'], 'shutdown writes what is queued');
});

test('the context writes each stage not omitted, gathers late annotations at the end, and keeps the first value of a key', () => {
  const seen: Event[] = [];
  const sink = { process: (ev: Event) => (seen.push(ev), true) };
  const conflicts: string[] = [];
  const ctx = new AuditContext('id-2', Date.UTC(2024, 0, 1), (k) => conflicts.push(k));
  ctx.begin({ level: 'Request', omitStages: ['ResponseStarted'], omitManagedFields: true }, { requestURI: '/x', verb: 'create', user: { name: 'jane', groups: [], extra: {} }, sourceIPs: [], userAgent: '' }, 'audit.orch.io/v1');
  ctx.emit('RequestReceived', sink);
  ctx.logRequestObject({ metadata: { name: 'n', namespace: 'ns', managedFields: [{}] } }, { resource: 'configmaps', apiVersion: 'v1' });
  ctx.addAnnotations({ 'a.io/k': '1' });
  ctx.addAnnotations({ 'a.io/k': '2' });
  ctx.addAnnotationSource((level) => ({ 'late.io/level': level }));
  ctx.responseCode(201);
  ctx.emit('ResponseStarted', sink);
  ctx.emit('ResponseComplete', sink);
  ctx.emit('ResponseComplete', sink);
  assert.deepEqual(seen.map((e) => e.stage), ['RequestReceived', 'ResponseComplete']);
  assert.equal(seen[0]!.stageTimestamp, '2024-01-01T00:00:00.000000Z');
  assert.equal(seen[0]!.requestObject, undefined, 'a snapshot: later changes do not reach an event already written');
  const done = seen[1]!;
  assert.deepEqual(done.objectRef, { resource: 'configmaps', namespace: 'ns', name: 'n', apiVersion: 'v1' });
  assert.deepEqual(done.requestObject, { metadata: { name: 'n', namespace: 'ns' } }, 'omitManagedFields');
  assert.deepEqual(done.annotations, { 'a.io/k': '1', 'late.io/level': 'Request' });
  assert.deepEqual(conflicts, ['a.io/k']);
  assert.deepEqual(done.responseStatus, { metadata: {}, code: 201 });
  const none = new AuditContext('id-3');
  none.begin({ level: 'None', omitStages: [], omitManagedFields: false }, { requestURI: '/x', verb: 'get', user: undefined, sourceIPs: [], userAgent: '' }, 'v');
  assert.equal(none.enabled(), false);
  assert.equal(none.emit('ResponseComplete', sink), true);
  assert.equal(seen.length, 2);
});
