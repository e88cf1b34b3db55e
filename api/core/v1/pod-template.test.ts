import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TSchema } from '@sinclair/typebox';
import { PodSpec, PodTemplateSpec, defaultPodTemplateSpec } from './pod-template.js';
import { Container, EphemeralContainer } from './container.js';
import { Probe } from './probe.js';
import { Volume } from './volume.js';
import { PersistentVolumeClaim } from './persistent-volume-claim.js';
import { imageTag, pullPolicyFor } from './pod-template-defaults.js';

type Node = TSchema & {
  properties?: Record<string, Node>;
  items?: Node;
  additionalProperties?: Node | boolean;
  patternProperties?: Record<string, Node>;
  anyOf?: Node[];
};

/** Every named object shape reachable from `root`, by its definition name. */
function namedShapes(root: Node): Map<string, Node> {
  const out = new Map<string, Node>();
  const visit = (n: Node | undefined) => {
    if (!n || typeof n !== 'object') return;
    const name = n['x-orch-type'] as string | undefined;
    if (n.properties) {
      if (name) {
        if (out.has(name)) return;
        out.set(name, n);
      }
      Object.values(n.properties).forEach(visit);
    }
    visit(n.items);
    if (typeof n.additionalProperties === 'object') visit(n.additionalProperties);
    Object.values(n.patternProperties ?? {}).forEach(visit);
    (n.anyOf ?? []).forEach(visit);
  };
  visit(root);
  return out;
}

const shapes = new Map([...namedShapes(PodTemplateSpec as Node), ...namedShapes(PersistentVolumeClaim as Node)]);

test('every property carries a protobuf number, unique within its message', () => {
  assert.ok(shapes.size > 80, `found ${shapes.size} shapes`);
  for (const [name, shape] of shapes) {
    const direct = new Map<number, string>();
    const embedded = new Map<string, string>();
    for (const [prop, schema] of Object.entries(shape.properties!)) {
      if (name.endsWith('.PersistentVolumeClaim') && (prop === 'apiVersion' || prop === 'kind')) continue;
      const proto = schema['x-proto'];
      assert.ok(Number.isInteger(proto) && proto > 0, `${name}.${prop} has no protobuf number`);
      const parent = schema['x-orch-proto-embedded'] as number | undefined;
      if (parent === undefined) {
        assert.ok(!direct.has(proto), `${name}.${prop} reuses number ${proto} of ${direct.get(proto)}`);
        direct.set(proto, prop);
      } else {
        const key = `${parent}/${proto}`;
        assert.ok(!embedded.has(key), `${name}.${prop} reuses embedded number ${key} of ${embedded.get(key)}`);
        embedded.set(key, prop);
      }
    }
    for (const key of embedded.keys()) {
      const parent = Number(key.split('/')[0]);
      assert.ok(!direct.has(parent), `${name}: embedded message number ${parent} is also the field ${direct.get(parent)}`);
    }
  }
});

test('every list states how server-side apply treats it', () => {
  for (const [name, shape] of shapes) {
    for (const [prop, schema] of Object.entries(shape.properties!)) {
      if (schema.type === 'array') assert.ok(schema['x-orch-list-type'], `${name}.${prop} has no list type`);
    }
  }
});

const numbers = (shape: Node) => Object.fromEntries(
  Object.entries(shape.properties!).map(([k, v]) => [k, v['x-orch-proto-embedded'] ? `${v['x-orch-proto-embedded']}.${v['x-proto']}` : v['x-proto']]),
);

test('field numbers follow upstream generated.proto', () => {
  const spec = numbers(PodSpec as Node);
  assert.deepEqual(
    [spec.volumes, spec.containers, spec.restartPolicy, spec.terminationGracePeriodSeconds, spec.initContainers, spec.tolerations,
      spec.topologySpreadConstraints, spec.ephemeralContainers, spec.os, spec.schedulingGates, spec.resourceClaims, spec.resources],
    [1, 2, 3, 4, 20, 22, 33, 34, 36, 38, 39, 40],
  );
  const c = numbers(Container as Node);
  assert.deepEqual(
    [c.name, c.image, c.ports, c.env, c.resources, c.volumeMounts, c.lifecycle, c.imagePullPolicy, c.envFrom,
      c.terminationMessagePolicy, c.volumeDevices, c.startupProbe, c.resizePolicy, c.restartPolicy],
    [1, 2, 6, 7, 8, 9, 12, 14, 19, 20, 21, 22, 23, 24],
  );
  const e = numbers(EphemeralContainer as Node);
  assert.equal(e.name, '1.1');
  assert.equal(e.targetContainerName, 2);
  const p = numbers(Probe as Node);
  assert.deepEqual([p.exec, p.grpc, p.initialDelaySeconds, p.terminationGracePeriodSeconds], ['1.1', '1.4', 2, 7]);
  const v = numbers(Volume as Node);
  assert.deepEqual([v.name, v.hostPath, v.configMap, v.projected, v.portworxVolume, v.csi, v.ephemeral, v.image],
    [1, '2.1', '2.19', '2.26', '2.24', '2.28', '2.29', '2.30']);
  const pvcSpec = numbers(shapes.get('io.orch.api.core.v1.PersistentVolumeClaimSpec')!);
  assert.deepEqual([pvcSpec.accessModes, pvcSpec.resources, pvcSpec.volumeName, pvcSpec.selector, pvcSpec.volumeMode,
    pvcSpec.dataSourceRef, pvcSpec.volumeAttributesClassName], [1, 2, 3, 4, 6, 8, 9]);
});

test('merge keys of the lists people patch most', () => {
  const marker = (shape: Node, prop: string) => {
    const s = shape.properties![prop]!;
    return [s['x-orch-patch-strategy'], s['x-orch-patch-merge-key'], s['x-orch-list-type'], s['x-orch-list-map-keys']];
  };
  assert.deepEqual(marker(PodSpec as Node, 'containers'), ['merge', 'name', 'map', ['name']]);
  assert.deepEqual(marker(PodSpec as Node, 'volumes'), ['merge,retainKeys', 'name', 'map', ['name']]);
  assert.deepEqual(marker(PodSpec as Node, 'tolerations'), [undefined, undefined, 'atomic', undefined]);
  assert.deepEqual(marker(PodSpec as Node, 'topologySpreadConstraints'),
    ['merge', 'topologyKey', 'map', ['topologyKey', 'whenUnsatisfiable']]);
  assert.deepEqual(marker(Container as Node, 'ports'), ['merge', 'containerPort', 'map', ['containerPort', 'protocol']]);
  assert.deepEqual(marker(Container as Node, 'volumeMounts'), ['merge', 'mountPath', 'map', ['mountPath']]);
  assert.deepEqual(marker(Container as Node, 'env'), ['merge', 'name', 'map', ['name']]);
});

test('required fields match upstream OpenAPI', () => {
  const req = (name: string) => shapes.get(`io.orch.api.core.v1.${name}`)!.required;
  assert.deepEqual(req('Container'), ['name']);
  assert.deepEqual(req('VolumeMount'), ['name', 'mountPath']);
  assert.deepEqual(req('ContainerPort'), ['containerPort']);
  assert.deepEqual(req('KeyToPath'), ['key', 'path']);
  assert.deepEqual(req('EnvVar'), ['name']);
  assert.deepEqual(req('Volume'), ['name']);
  assert.deepEqual(req('PodSpec'), ['containers']);
  assert.deepEqual(req('HTTPGetAction'), ['port']);
  assert.deepEqual(req('NodeSelector'), ['nodeSelectorTerms']);
  assert.deepEqual(req('TopologySpreadConstraint'), ['maxSkew', 'topologyKey', 'whenUnsatisfiable']);
  assert.equal(req('Toleration'), undefined);
  assert.equal(req('Probe'), undefined);
});

test('image pull policy follows the image tag', () => {
  const cases: [string, string][] = [
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['library/nginx', 'Always'],
    ['localhost:5000/team/app', 'Always'],
    ['registry.example.com:5000/team/app:latest', 'Always'],
    ['nginx:1.25.4', 'IfNotPresent'],
    ['quay.io/prometheus/node-exporter:v1.8.0', 'IfNotPresent'],
    [`nginx@sha256:${'a'.repeat(64)}`, 'IfNotPresent'],
    [`nginx:latest@sha256:${'a'.repeat(64)}`, 'Always'],
    ['', 'IfNotPresent'],
    ['NGINX', 'IfNotPresent'],
  ];
  for (const [image, policy] of cases) assert.equal(pullPolicyFor(image), policy, image);
  assert.equal(imageTag('busybox'), 'latest');
  assert.equal(imageTag('busybox:1.36'), '1.36');
});

test('the defaulter sets what depends on other fields and replaces zero values', () => {
  const t: PodTemplateSpec = {
    spec: {
      containers: [{
        name: 'app',
        image: 'app',
        ports: [{ containerPort: 80, protocol: '' as 'TCP' }],
        livenessProbe: { httpGet: { port: 80, path: '' }, periodSeconds: 0 },
        lifecycle: { preStop: { httpGet: { port: 80 } } },
      }],
      initContainers: [{ name: 'init', image: 'init:1.0', imagePullPolicy: 'Never' }],
      volumes: [{ name: 'scratch' }, { name: 'img', image: { reference: 'artifacts:v1' } }],
      dnsPolicy: '' as 'ClusterFirst',
    },
  };
  defaultPodTemplateSpec(t);
  const spec = t.spec!;
  assert.equal(spec.dnsPolicy, 'ClusterFirst');
  assert.equal(spec.restartPolicy, 'Always');
  const app = spec.containers[0]!;
  assert.equal(app.imagePullPolicy, 'Always');
  assert.equal(app.ports![0]!.protocol, 'TCP');
  assert.deepEqual(app.livenessProbe, {
    httpGet: { port: 80, path: '/', scheme: 'HTTP' }, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3,
  });
  assert.deepEqual(app.lifecycle!.preStop!.httpGet, { port: 80, path: '/', scheme: 'HTTP' });
  assert.equal(spec.initContainers![0]!.imagePullPolicy, 'Never');
  assert.deepEqual(spec.volumes![0], { name: 'scratch', emptyDir: {} });
  assert.deepEqual(spec.volumes![1]!.image, { reference: 'artifacts:v1', pullPolicy: 'IfNotPresent' });
});

test('the defaulter tolerates input that has not been validated yet', () => {
  const junk = { spec: { containers: 'nope', volumes: [null, 3, { name: 'v' }], initContainers: [{ livenessProbe: 'x' }] } };
  assert.doesNotThrow(() => defaultPodTemplateSpec(junk as unknown as PodTemplateSpec));
});
