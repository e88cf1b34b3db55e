// Stock helm 3.17 and 4.1 installing a chart with a `crds/` folder, as operators ship them: helm
// creates the CustomResourceDefinition first, waits for it, then installs the templates, which
// include an object of the new kind; uninstall leaves the definition (helm never deletes crds/).
// Against a server with upstream's group names, which helm's CRD handling hard-codes.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { group, widgetDefinition, type Json } from './framework/custom-resources.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { stockTools } from './framework/kubectl.js';
import { toYAML } from './framework/manifests.js';
import { run, type ProcessResult } from './framework/process.js';

const domain = 'k8s.io';

/** A chart whose crds/ holds the Widget definition and whose template makes a Widget. */
function writeChart(dir: string): string {
  const chart = join(dir, 'widgets');
  mkdirSync(join(chart, 'templates'), { recursive: true });
  mkdirSync(join(chart, 'crds'), { recursive: true });
  writeFileSync(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: widgets\nversion: 0.1.0\n');
  writeFileSync(join(chart, 'values.yaml'), 'color: green\n');
  const crd = widgetDefinition();
  crd.apiVersion = `apiextensions.${domain}/v1`;
  writeFileSync(join(chart, 'crds', 'widgets.yaml'), toYAML([crd]));
  writeFileSync(join(chart, 'templates', 'widget.yaml'), `apiVersion: ${group}/v1
kind: Widget
metadata:
  name: {{ .Release.Name }}-widget
spec:
  color: {{ .Values.color }}
  replicas: 2
`);
  return chart;
}

describe('helm charts with crds/', () => {
  let t: TestServer;
  let kc: Kubeconfig;
  let chart: string;

  before(async () => {
    t = await startTestServer({ apiDomain: domain });
    kc = writeKubeconfig(t);
    chart = writeChart(kc.dir);
  });
  after(async () => {
    kc?.remove();
    await t?.stop();
  });

  function helm(binary: string, args: readonly string[]): Promise<ProcessResult> {
    const home = join(kc.dir, `helm-home-${binary.length}`);
    return run(binary, [...args, '--kubeconfig', kc.path], {
      timeoutMs: 90_000,
      env: {
        ...process.env, HOME: home, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data'),
        KUBECONFIG: kc.path, NO_COLOR: '1',
      },
    });
  }

  for (const [name, binary] of [['helm 3.17', stockTools.helm3], ['helm 4.1', stockTools.helm4]] as const) {
    test(`${name}: install creates the definition, then the object of its kind; uninstall keeps the definition`, async () => {
      const ns = 'default';
      const release = `w${name.replace(/\D/g, '')}`;
      const install = await helm(binary, ['install', release, chart, '--namespace', ns, '--wait', '--timeout', '60s']);
      assert.equal(install.code, 0, install.describe());
      const crd = await t.client.get(`/apis/apiextensions.${domain}/v1/customresourcedefinitions/widgets.${group}`);
      assert.equal(crd.status, 200, crd.text);
      const w = await t.client.get(`/apis/${group}/v1/namespaces/${ns}/widgets/${release}-widget`);
      assert.equal(w.status, 200, w.text);
      assert.deepEqual((w.body as Json).spec, { color: 'green', replicas: 2, size: '10cm', maxReplicas: 10 });
      const uninstall = await helm(binary, ['uninstall', release, '--namespace', ns, '--wait']);
      assert.equal(uninstall.code, 0, uninstall.describe());
      const gone = await t.client.get(`/apis/${group}/v1/namespaces/${ns}/widgets/${release}-widget`);
      assert.equal(gone.status, 404, gone.text);
      const kept = await t.client.get(`/apis/apiextensions.${domain}/v1/customresourcedefinitions/widgets.${group}`);
      assert.equal(kept.status, 200, kept.text);
    });
  }
});
