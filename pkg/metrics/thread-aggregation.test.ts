import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Counter, Gauge, Registry, Summary } from 'prom-client';
import { aggregateThreadMetrics } from './thread-aggregation.js';

/** One thread's registry: a counter, a gauge counting shared objects (max), an in-flight gauge (sum), a summary, the process's memory and start time. */
async function worker(requests: number, objects: number, inflight: number, observations: number[]): Promise<unknown[]> {
  const registry = new Registry();
  const registers = [registry];
  new Counter({ name: 'requests_total', help: 'h', labelNames: ['code'], registers }).inc({ code: '200' }, requests);
  new Gauge({ name: 'storage_objects', help: 'h', aggregator: 'max', registers }).set(objects);
  new Gauge({ name: 'inflight', help: 'h', registers }).set(inflight);
  const s = new Summary({ name: 'step_seconds', help: 'h', percentiles: [0.5], registers });
  for (const o of observations) s.observe(o);
  new Gauge({ name: 'process_resident_memory_bytes', help: 'h', registers }).set(1000 + requests);
  new Gauge({ name: 'process_start_time_seconds', help: 'h', aggregator: 'omit', registers }).set(50 + requests);
  return registry.getMetricsAsJSON();
}

test('counters and sum gauges add up, max gauges take the largest, summaries average quantiles and add counts', async () => {
  const { body } = await aggregateThreadMetrics([await worker(3, 10, 1, [1, 1, 1]), await worker(4, 11, 2, [3])]);
  assert.match(body, /^requests_total\{code="200"\} 7$/m);
  assert.match(body, /^storage_objects 11$/m);
  assert.match(body, /^inflight 3$/m);
  assert.match(body, /^step_seconds\{quantile="0.5"\} 2$/m);
  assert.match(body, /^step_seconds_count 4$/m);
  assert.match(body, /^step_seconds_sum 6$/m);
  assert.match(body, /^process_resident_memory_bytes 1004$/m, 'the one process, as its latest reading says, not a sum');
  assert.match(body, /^process_start_time_seconds 53$/m);
});

test('no threads answer: an empty exposition', async () => {
  assert.equal((await aggregateThreadMetrics([])).body.trim(), '');
});
