import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { AdmissionMetrics } from './admission-metrics.js';

test('the step summary exposes _sum and _count per label set and no quantiles, as upstream without Objectives', async () => {
  const registry = new Registry();
  const m = new AdmissionMetrics(registry);
  m.step('admit', 'CREATE', false, 0.25);
  m.step('admit', 'CREATE', false, 0.5);
  m.step('validate', 'UPDATE', true, 1);
  const text = await registry.metrics();
  const summary = text.split('\n\n').find((b) => b.includes('# TYPE apiserver_admission_step_admission_duration_seconds_summary '));
  assert.equal(summary, [
    '# HELP apiserver_admission_step_admission_duration_seconds_summary Admission sub-step latency summary in seconds, broken out for each operation and API resource and step type (validate or admit).',
    '# TYPE apiserver_admission_step_admission_duration_seconds_summary summary',
    'apiserver_admission_step_admission_duration_seconds_summary_sum{type="admit",operation="CREATE",rejected="false"} 0.75',
    'apiserver_admission_step_admission_duration_seconds_summary_count{type="admit",operation="CREATE",rejected="false"} 2',
    'apiserver_admission_step_admission_duration_seconds_summary_sum{type="validate",operation="UPDATE",rejected="true"} 1',
    'apiserver_admission_step_admission_duration_seconds_summary_count{type="validate",operation="UPDATE",rejected="true"} 1',
  ].join('\n'));
  assert.match(text, /apiserver_admission_step_admission_duration_seconds_bucket\{le="0\.5",type="admit",operation="CREATE",rejected="false"\} 2/);
  assert.match(text, /apiserver_admission_step_admission_duration_seconds_count\{type="admit",operation="CREATE",rejected="false"\} 2/);
});

test('plug-in latencies keep counting per label set after a reset of the registry', async () => {
  const registry = new Registry();
  const m = new AdmissionMetrics(registry);
  m.controller('NamespaceLifecycle', 'admit', 'CREATE', false, 0.001);
  registry.resetMetrics();
  m.controller('NamespaceLifecycle', 'admit', 'CREATE', false, 0.001);
  m.step('admit', 'CREATE', false, 0.001);
  const text = await registry.metrics();
  assert.match(text, /apiserver_admission_controller_admission_duration_seconds_count\{name="NamespaceLifecycle",type="admit",operation="CREATE",rejected="false"\} 1\n/);
  assert.match(text, /apiserver_admission_step_admission_duration_seconds_summary_count\{type="admit",operation="CREATE",rejected="false"\} 1\n/);
});
