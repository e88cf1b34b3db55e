// The real kubectl with CustomResourceDefinitions: one file holding a definition and objects of
// its kind applied, `kubectl get` printing the definition's columns (and by short name and
// category), `kubectl explain` reading the published schema, edits by apply and scale, delete.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';
import { toYAML } from './framework/manifests.js';
import { group, widgetDefinition, type Json } from './framework/custom-resources.js';

function widget(name: string, spec: Json): Json {
  return { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name }, spec };
}

describe('kubectl with custom resources', () => {
  let t: TestServer;
  let kc: Kubeconfig;
  let kubectl: Kubectl;

  before(async () => {
    t = await startTestServer();
    kc = writeKubeconfig(t);
    kubectl = new Kubectl(kc);
  });
  after(async () => {
    kc?.remove();
    await t?.stop();
  });

  test('apply of a definition and its objects in one file', async () => {
    const file = toYAML([widgetDefinition(), widget('alpha', { color: 'red', replicas: 2 }), widget('beta', { color: 'blue' })]);
    // kubectl maps every object of the file before applying any: as against kube-apiserver, the
    // objects of a kind defined in the same file need the definition established first, which a
    // second apply of the same file finds.
    const first = await kubectl.run(['apply', '-f', '-'], { input: file });
    assert.equal(first.code, 1, first.describe());
    assert.match(first.stderr, /no matches for kind "Widget" in version "stable.example.com\/v1"\nensure CRDs are installed first/, first.describe());
    assert.match(first.stdout, /customresourcedefinition.apiextensions.orch.io\/widgets.stable.example.com created/, first.describe());
    await pollUntil(() => kubectl.run(['get', 'crd', `widgets.${group}`, '-o', 'jsonpath={.status.conditions[?(@.type=="Established")].status}']),
      (r) => r.stdout === 'True', 'the definition Established');
    const r = await pollUntil(() => kubectl.run(['apply', '-f', '-'], { input: file }), (x) => x.code === 0, 'the file applied');
    assert.match(r.stdout, /widget.stable.example.com\/alpha (created|unchanged)/, r.describe());
    assert.match(r.stdout, /widget.stable.example.com\/beta (created|unchanged)/, r.describe());
    const again = await kubectl.ok(['apply', '-f', '-'], { input: file });
    assert.match(again.stdout, /customresourcedefinition.apiextensions.orch.io\/widgets.stable.example.com unchanged/, again.describe());
    assert.match(again.stdout, /widget.stable.example.com\/alpha unchanged/, again.describe());
  });

  test('get prints the printer columns, by plural, short name and category', async () => {
    const r = await kubectl.ok(['get', 'widgets']);
    const lines = r.stdout.trim().split('\n');
    assert.match(lines[0]!, /^NAME\s+COLOR\s+REPLICAS\s+AGE$/, r.stdout);
    assert.match(lines.find((l) => l.startsWith('alpha'))!, /^alpha\s+red\s+2\s+\d+s$/, r.stdout);
    assert.match(lines.find((l) => l.startsWith('beta'))!, /^beta\s+blue\s+1\s+\d+s$/, r.stdout);
    const short = await kubectl.ok(['get', 'wd', 'alpha', '-o', 'jsonpath={.spec.size}']);
    assert.equal(short.stdout, '10cm');
    const category = await kubectl.ok(['get', 'gadgets']);
    assert.match(category.stdout, /^alpha\s+red\s+2/m, category.stdout);
  });

  test('explain reads the published schema', async () => {
    const r = await kubectl.ok(['explain', 'widgets.spec']);
    assert.match(r.stdout, /KIND:\s+Widget/, r.stdout);
    assert.match(r.stdout, /color\s+<string> -required-/, r.stdout);
    assert.match(r.stdout, /replicas\s+<integer>/, r.stdout);
  });

  test('edits: apply a change, scale, a refused value, delete', async () => {
    const changed = await kubectl.ok(['apply', '-f', '-'], { input: toYAML([widget('alpha', { color: 'green', replicas: 2 })]) });
    assert.match(changed.stdout, /widget.stable.example.com\/alpha configured/, changed.describe());
    await kubectl.ok(['scale', 'widget/alpha', '--replicas=3']);
    const got = await kubectl.ok(['get', 'widget', 'alpha', '-o', 'jsonpath={.spec.color} {.spec.replicas}']);
    assert.equal(got.stdout, 'green 3');
    const bad = await kubectl.run(['apply', '-f', '-'], { input: toYAML([widget('gamma', { color: 'purple' })]) });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /spec.color: Unsupported value: "purple": supported values: "red", "green", "blue"/, bad.describe());
    const del = await kubectl.ok(['delete', 'widgets', '--all']);
    assert.match(del.stdout, /widget.stable.example.com "alpha" deleted/, del.describe());
    const none = await kubectl.run(['get', 'widgets']);
    assert.match(none.stderr, /No resources found in default namespace/, none.describe());
  });
});
