// CustomResourceDefinitions through the real server: a definition is validated as upstream
// validates it, named and established by the server's own controllers, and its resources are
// served at once (every verb, discovery, selectors, status and scale, Tables), their objects
// pruned, defaulted and validated by the definition's schema and CEL rules; deleting the
// definition deletes its objects first.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import type { Response } from './framework/client.js';

type Json = Record<string, unknown>;

const group = 'stable.example.com';
const crdPath = (name = '') => `/apis/apiextensions.orch.io/v1/customresourcedefinitions${name ? `/${name}` : ''}`;

/** A namespaced Widget with status and scale sub-resources, printer columns, defaults, bounds and a CEL rule. */
export function widgetDefinition(): Json {
  return {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'], categories: ['all', 'gadgets'] },
      versions: [{
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
        additionalPrinterColumns: [
          { name: 'Color', type: 'string', jsonPath: '.spec.color' },
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['color'],
                'x-kubernetes-validations': [{ rule: 'self.replicas <= self.maxReplicas', message: 'replicas must not exceed maxReplicas' }],
                properties: {
                  color: { type: 'string', enum: ['red', 'green', 'blue'] },
                  size: { type: 'string', pattern: '^[0-9]+(cm|m)$', default: '10cm' },
                  replicas: { type: 'integer', minimum: 0, default: 1 },
                  maxReplicas: { type: 'integer', default: 10 },
                  tags: { type: 'array', items: { type: 'string', maxLength: 5 }, 'x-kubernetes-list-type': 'set' },
                },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' }, phase: { type: 'string' } } },
            },
          },
        },
      }],
    },
  };
}

const widgets = (ns: string, name = '') => `/apis/${group}/v1/namespaces/${ns}/widgets${name ? `/${name}` : ''}`;

function widget(name: string, spec: Json, labels: Record<string, string> = {}): Json {
  return { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name, labels }, spec };
}

function conditions(r: Response): Record<string, string> {
  const cs = ((r.body as Json).status as Json | undefined)?.conditions as { type: string; status: string; reason?: string }[] | undefined;
  return Object.fromEntries((cs ?? []).map((c) => [c.type, `${c.status}/${c.reason ?? ''}`]));
}

/** Creates a definition and waits until it is Established. */
export async function establish(t: TestServer, crd: Json): Promise<Response> {
  const r = await t.client.post(crdPath(), crd);
  assert.equal(r.status, 201, r.text);
  const name = (crd.metadata as Json).name as string;
  return pollUntil(() => t.client.get(crdPath(name)), (g) => conditions(g).Established?.startsWith('True') === true, `${name} Established`);
}

const causes = (r: Response) => (((r.body as Json).details as Json | undefined)?.causes as { field: string; message: string; reason: string }[] | undefined) ?? [];

describe('custom resources', () => {
  let t: TestServer;
  const ns = 'default';

  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t?.stop();
  });

  test('a definition is validated as upstream validates it', async () => {
    const bad = widgetDefinition();
    const spec = bad.spec as Json;
    (spec.versions as Json[])[0]!.storage = false;
    (spec.names as Json).kind = 'widget kind';
    const r = await t.client.post(crdPath(), bad);
    assert.equal(r.status, 422, r.text);
    const fields = causes(r).map((c) => c.field);
    assert.ok(fields.includes('spec.versions'), r.text);
    assert.ok(fields.includes('spec.names.kind'), r.text);
    assert.match(r.text, /must have exactly one version marked as storage version/);

    const badSchema = widgetDefinition();
    const v = ((badSchema.spec as Json).versions as Json[])[0]!;
    ((v.schema as Json).openAPIV3Schema as Json).properties = { spec: { properties: { a: { type: 'string' } } } };
    const s = await t.client.post(crdPath(), badSchema);
    assert.equal(s.status, 422, s.text);
    assert.ok(causes(s).some((c) => c.field === 'spec.validation.openAPIV3Schema.properties[spec].type' && c.reason === 'FieldValueRequired'), s.text);

    const badRule = widgetDefinition();
    const rv = ((badRule.spec as Json).versions as Json[])[0]!;
    ((((rv.schema as Json).openAPIV3Schema as Json).properties as Json).spec as Json)['x-kubernetes-validations'] = [{ rule: 'self.nosuchfield == 1' }];
    const c = await t.client.post(crdPath(), badRule);
    assert.equal(c.status, 422, c.text);
    assert.match(c.text, /x-kubernetes-validations\[0\]\.rule/);
  });

  test('a definition is named and established, and its resources are served at once', async () => {
    const got = await establish(t, widgetDefinition());
    const body = got.body as Json;
    const status = body.status as Json;
    assert.equal(conditions(got).NamesAccepted, 'True/NoConflicts');
    assert.deepEqual(status.storedVersions, ['v1']);
    assert.deepEqual((status.acceptedNames as Json).shortNames, ['wd']);

    const d = await t.client.get(`/apis/${group}/v1`);
    assert.equal(d.status, 200, d.text);
    const resources = (d.body as Json).resources as Json[];
    const w = resources.find((x) => x.name === 'widgets')!;
    assert.deepEqual({ kind: w.kind, namespaced: w.namespaced, singularName: w.singularName, shortNames: w.shortNames, categories: w.categories },
      { kind: 'Widget', namespaced: true, singularName: 'widget', shortNames: ['wd'], categories: ['all', 'gadgets'] });
    assert.deepEqual([...(w.verbs as string[])].sort(), ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    assert.ok(resources.some((x) => x.name === 'widgets/status'));
    assert.ok(resources.some((x) => x.name === 'widgets/scale' && x.group === 'autoscaling' && x.kind === 'Scale'));
    const groups = await t.client.get('/apis');
    assert.ok(((groups.body as Json).groups as Json[]).some((g) => g.name === group), groups.text);
  });

  test('objects are pruned, defaulted and validated by the schema and its CEL rules', async () => {
    const created = await t.client.post(widgets(ns), { ...widget('w1', { color: 'red', unknownField: 1 }), extra: true });
    assert.equal(created.status, 201, created.text);
    const spec = (created.body as Json).spec as Json;
    assert.deepEqual(spec, { color: 'red', size: '10cm', replicas: 1, maxReplicas: 10 });
    assert.equal((created.body as Json).extra, undefined);
    assert.equal(((created.body as Json).metadata as Json).generation, 1);

    const strict = await t.client.post(`${widgets(ns)}?fieldValidation=Strict`, widget('w-strict', { color: 'red', bogus: 1 }));
    assert.equal(strict.status, 400, strict.text);
    assert.equal((strict.body as Json).message, 'strict decoding error: unknown field "spec.bogus"');
    const warn = await t.client.post(`${widgets(ns)}?fieldValidation=Warn`, widget('w-warn', { color: 'red', bogus: 1 }));
    assert.equal(warn.status, 201, warn.text);
    assert.equal(warn.headers.warning, '299 - "unknown field \\"spec.bogus\\""');

    const bad = await t.client.post(widgets(ns), widget('w-bad', { color: 'purple', size: '3 inches', replicas: -1, tags: ['toolong', 'a', 'a'] }));
    assert.equal(bad.status, 422, bad.text);
    const byField = Object.fromEntries(causes(bad).map((c) => [c.field, c.reason]));
    assert.equal(byField['spec.color'], 'FieldValueNotSupported', bad.text);
    assert.equal(byField['spec.size'], 'FieldValueInvalid', bad.text);
    assert.equal(byField['spec.replicas'], 'FieldValueInvalid', bad.text);
    assert.equal(byField['spec.tags[0]'], 'FieldValueTooLong', bad.text);
    assert.equal(byField['spec.tags[2]'], 'FieldValueDuplicate', bad.text);
    const typed = await t.client.post(widgets(ns), widget('w-typed', { color: 7 }));
    assert.equal(typed.status, 422, typed.text);
    assert.match(String((typed.body as Json).message), /spec.color: Invalid value: "integer": spec.color in body must be of type string: "integer"/);
    const missing = await t.client.post(widgets(ns), widget('w-missing', {}));
    assert.equal(missing.status, 422, missing.text);
    assert.ok(causes(missing).some((c) => c.field === 'spec.color' && c.reason === 'FieldValueRequired'), missing.text);

    const rule = await t.client.post(widgets(ns), widget('w-rule', { color: 'red', replicas: 5, maxReplicas: 2 }));
    assert.equal(rule.status, 422, rule.text);
    assert.ok(causes(rule).some((c) => c.field === 'spec' && c.message.includes('replicas must not exceed maxReplicas')), rule.text);
  });
});
