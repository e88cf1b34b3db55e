import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from 'yaml';
import {
  findDuplicateFieldMessagesJSON,
  findDuplicateFieldMessagesYAML,
  findDuplicateFieldsJSON,
} from './duplicate-fields.js';
import { goQuote } from '../util/go-quote.js';

// Bodies from upstream's test/integration/apiserver/field_validation_test.go, with the %s filled in.
const upstreamDeploymentJSON = `
	{
		"apiVersion": "apps/v1",
		"kind": "Deployment",
		"metadata": {
			"name": "dupename",
			"name": "test-deployment",
			"labels": {"app": "nginx"},
			"unknownMeta": "metaVal"
		},
		"spec": {
			"unknown1": "val1",
			"unknownDupe": "valDupe",
			"unknownDupe": "valDupe2",
			"paused": true,
			"paused": false,
			"selector": {
				"matchLabels": {
					"app": "nginx"
				}
			},
			"template": {
				"metadata": {
					"labels": {
						"app": "nginx"
					}
				},
				"spec": {
					"containers": [{
						"name":  "nginx",
						"image": "nginx:latest",
						"unknownNested": "val1",
						"imagePullPolicy": "Always",
						"imagePullPolicy": "Never"
					}]
				}
			}
		}
	}
		`;

const upstreamCRDJSON = `
{
	"apiVersion": "example.com/v1",
	"kind": "Schema",
	"metadata": {
		"name": "dupename",
		"name": "test-cr",
		"unknownMeta": "metaVal",
		"resourceVersion": "1"
	},
	"spec": {
		"unknown1": "val1",
		"unknownDupe": "valDupe",
		"unknownDupe": "valDupe2",
		"knownField1": "val1",
		"knownField1": "val2",
			"ports": [{
				"name": "portName",
				"containerPort": 8080,
				"protocol": "TCP",
				"hostPort": 8081,
				"hostPort": 8082,
				"unknownNested": "val"
			}],
		"embeddedObj": {
			"apiVersion": "v1",
			"kind": "ConfigMap",
			"metadata": {
				"name": "my-cm",
				"namespace": "my-ns",
				"unknownEmbeddedMeta": "foo"
			}
		}
	}
}`;

const upstreamJSONPatch = `
			[
				{"op": "add", "path": "/spec/unknown1", "value": "val1", "foo":"bar"},
				{"op": "add", "path": "/spec/unknown2", "path": "/spec/unknown3", "value": "val1"},
				{"op": "add", "path": "/spec/unknownDupe", "value": "valDupe"},
				{"op": "add", "path": "/spec/unknownDupe", "value": "valDupe2"},
				{"op": "add", "path": "/spec/paused", "value": true},
				{"op": "add", "path": "/spec/paused", "value": false},
				{"op": "add", "path": "/spec/template/spec/containers/0/unknownNested", "value": "val1"},
				{"op": "add", "path": "/spec/template/spec/containers/0/imagePullPolicy", "value": "Always"},
				{"op": "add", "path": "/spec/template/spec/containers/0/imagePullPolicy", "value": "Never"}
			]
			`;

const upstreamDeploymentYAML = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: dupename
  name: test-deployment
  unknownMeta: metaVal
  labels:
    app: nginx
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  paused: true
  paused: false
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:latest
        unknownNested: val1
        imagePullPolicy: Always
        imagePullPolicy: Never`;

const upstreamCRDYAML = `
apiVersion: "example.com/v1"
kind: "Schema"
metadata:
  name: dupename
  name: "test-cr"
  resourceVersion: "1"
  unknownMeta: metaVal
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  knownField1: val1
  knownField1: val2
  ports:
  - name: portName
    containerPort: 8080
    protocol: TCP
    hostPort: 8081
    hostPort: 8082
    unknownNested: val
  embeddedObj:
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: my-cm
      namespace: my-ns
      unknownEmbeddedMeta: foo`;

// ---------------------------------------------------------------------------------------------
// JSON

test('JSON: upstream field validation bodies give upstream paths and messages', () => {
  // Upstream's untyped (CRD, merge patch) decoding reports every duplicate, unknown ones included.
  assert.deepEqual(findDuplicateFieldMessagesJSON(upstreamDeploymentJSON), [
    'duplicate field "metadata.name"',
    'duplicate field "spec.unknownDupe"',
    'duplicate field "spec.paused"',
    'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
  ]);
  assert.deepEqual(findDuplicateFieldMessagesJSON(upstreamCRDJSON), [
    'duplicate field "metadata.name"',
    'duplicate field "spec.unknownDupe"',
    'duplicate field "spec.knownField1"',
    'duplicate field "spec.ports[0].hostPort"',
  ]);
  // Upstream: `json patch duplicate field "[1].path"`.
  assert.deepEqual(findDuplicateFieldsJSON(upstreamJSONPatch), ['[1].path']);
});

test('JSON: top-level, nested and in-list duplicates', () => {
  assert.deepEqual(findDuplicateFieldsJSON('{"a":1,"b":2,"a":3}'), ['a']);
  assert.deepEqual(findDuplicateFieldsJSON('{"metadata":{"labels":{"app":"x","tier":"y","app":"z"}}}'), ['metadata.labels.app']);
  assert.deepEqual(
    findDuplicateFieldsJSON('{"spec":{"containers":[{"name":"a"},{"name":"b","image":"i","name":"c"}]}}'),
    ['spec.containers[1].name'],
  );
  assert.deepEqual(findDuplicateFieldsJSON('[[{"x":1}],[{"y":1},{"x":1,"x":2}]]'), ['[1][1].x']);
  assert.deepEqual(findDuplicateFieldsJSON('{"a":[[{"k":1,"k":2}]]}'), ['a[0][0].k']);
  // Duplicates of a container-valued key; pre-order like upstream (the key before what is in its value).
  assert.deepEqual(findDuplicateFieldsJSON('{"a":{"x":1,"x":2},"a":{"x":1,"x":2,"y":{"z":0,"z":1}}}'), ['a.x', 'a', 'a.y.z']);
  assert.deepEqual(findDuplicateFieldsJSON('{"a":null,"a":[],"b":{},"b":{}}'), ['a', 'b']);
});

test('JSON: keys compare after unescaping', () => {
  assert.deepEqual(findDuplicateFieldsJSON('{"a":1,"\\u0061":2}'), ['a']);
  assert.deepEqual(findDuplicateFieldsJSON('{"\\u0041b":1,"Ab":2}'), ['Ab']);
  assert.deepEqual(findDuplicateFieldsJSON('{"a/b":1,"a\\/b":2}'), ['a/b']);
  assert.deepEqual(findDuplicateFieldsJSON('{"q\\"":1,"q\\u0022":2}'), ['q"']);
  assert.deepEqual(findDuplicateFieldsJSON('{"\\\\":1,"\\u005c":2}'), ['\\']);
  assert.deepEqual(findDuplicateFieldsJSON('{"\\ud83d\\ude00":1,"😀":2}'), ['😀']);
  assert.deepEqual(findDuplicateFieldsJSON('{"\\n":1,"\\u000a":2}'), ['\n']);
  assert.deepEqual(findDuplicateFieldMessagesJSON('{"\\n":1,"\\u000A":2}'), ['duplicate field "\\n"']);
  // Different after unescaping: no duplicate.
  assert.deepEqual(findDuplicateFieldsJSON('{"a":1,"\\u0062":2,"A":3,"a ":4}'), []);
});

test('JSON: keys with dots, quotes, braces and empty keys are joined verbatim', () => {
  assert.deepEqual(
    findDuplicateFieldsJSON('{"metadata":{"labels":{"app.kubernetes.io/name":"a","app.kubernetes.io/name":"b"}}}'),
    ['metadata.labels.app.kubernetes.io/name'],
  );
  assert.deepEqual(findDuplicateFieldsJSON('{"a.b":{"c":1,"c":2}}'), ['a.b.c']);
  assert.deepEqual(findDuplicateFieldsJSON('{"{[,:]}":1,"{[,:]}":2}'), ['{[,:]}']);
  assert.deepEqual(findDuplicateFieldsJSON('{"":1,"":2}'), ['']);
  assert.deepEqual(findDuplicateFieldMessagesJSON('{"":{"x":1,"x":2}}'), ['duplicate field ".x"']);
  assert.deepEqual(findDuplicateFieldMessagesJSON('{"say \\"hi\\"":1,"say \\"hi\\"":2}'), ['duplicate field "say \\"hi\\""']);
});

test('JSON: a key three times is reported once', () => {
  assert.deepEqual(findDuplicateFieldsJSON('{"a":1,"a":2,"a":3,"b":4,"b":5,"b":6}'), ['a', 'b']);
  // The same path again in a later copy of the parent is not reported again either.
  assert.deepEqual(findDuplicateFieldsJSON('[{"x":{"k":1,"k":2}}]'), ['[0].x.k']);
});

test('JSON: no false positives', () => {
  assert.deepEqual(findDuplicateFieldsJSON(upstreamDeploymentJSON.replace(/"(unknownDupe|paused|imagePullPolicy)": [^,\n]*,\n/g, '').replace('"name": "dupename",', '')), []);
  assert.deepEqual(findDuplicateFieldsJSON('{"a":{"x":1},"b":{"x":1},"c":[{"x":1},{"x":2}]}'), []);
  assert.deepEqual(findDuplicateFieldsJSON('[{"x":1},{"x":1},{"x":{"x":{"x":1}}}]'), []);
  assert.deepEqual(findDuplicateFieldsJSON('{"a":{"a":{"a":1}},"b":"a","c":["a","a"],"d":"\\"a\\":"}'), []);
  assert.deepEqual(findDuplicateFieldsJSON('{"a":"x\\"}{,\\\\","b":1}'), []);
  assert.deepEqual(findDuplicateFieldsJSON('{"a":-1.5e+10,"b":true,"c":null,"d":false,"e":[1,2,3],"f":0}'), []);
  assert.deepEqual(findDuplicateFieldsJSON('  {\n\t"a" : 1 ,\r\n "b"\t:\t{ } }  '), []);
  assert.deepEqual(findDuplicateFieldsJSON('"a"'), []);
  assert.deepEqual(findDuplicateFieldsJSON('[]'), []);
  assert.deepEqual(findDuplicateFieldsJSON(''), []);
});

test('JSON: escaped quotes and literals do not derail the scanner', () => {
  assert.deepEqual(findDuplicateFieldsJSON('{"a":"x\\"}{\\\\","a":1}'), ['a']);
  assert.deepEqual(findDuplicateFieldsJSON('{"s":"\\\\\\"","t":"\\\\","u":1,"u":2}'), ['u']);
  assert.deepEqual(findDuplicateFieldsJSON('{"n":-0.5E-3,"t":true,"f":false,"z":null,"n":1}'), ['n']);
});

test('JSON: at most 100 duplicates are reported, like upstream', () => {
  const parts: string[] = [];
  for (let i = 0; i < 150; i++) parts.push(`"k${i}":1,"k${i}":2`);
  const found = findDuplicateFieldsJSON(`{${parts.join(',')}}`);
  assert.equal(found.length, 100);
  assert.equal(found[0], 'k0');
  assert.equal(found[99], 'k99');
});

test('JSON: many keys in one object (set-backed lookup)', () => {
  const keys = Array.from({ length: 20000 }, (_, i) => `"key-${i}":${i}`);
  assert.deepEqual(findDuplicateFieldsJSON(`{${keys.join(',')}}`), []);
  keys.splice(15000, 0, '"key-3":0', '"key-17":0');
  assert.deepEqual(findDuplicateFieldsJSON(`{"data":{${keys.join(',')}}}`), ['data.key-3', 'data.key-17']);
  // The slot of a big object is reused by a later small sibling without stale keys.
  assert.deepEqual(findDuplicateFieldsJSON(`[{${keys.slice(0, 40).join(',')}},{"key-1":1,"key-2":2}]`), []);
});

test('JSON: 10k-deep nesting needs no recursion', () => {
  const depth = 10000;
  const deepObject = '{"a":'.repeat(depth) + '{"x":1,"x":2}' + '}'.repeat(depth);
  assert.deepEqual(findDuplicateFieldsJSON(deepObject), [`${'a.'.repeat(depth)}x`]);
  const deepArray = '['.repeat(depth) + '{"x":1,"x":2}' + ']'.repeat(depth);
  assert.deepEqual(findDuplicateFieldsJSON(deepArray), [`${'[0]'.repeat(depth)}.x`]);
  const mixed = '{"a":['.repeat(depth) + '{"x":1},{"x":1,"x":1}' + ']}'.repeat(depth);
  assert.deepEqual(findDuplicateFieldsJSON(mixed), [`${'a[0].'.repeat(depth - 1)}a[1].x`]);
  const veryDeep = '['.repeat(200000) + ']'.repeat(200000);
  assert.deepEqual(findDuplicateFieldsJSON(veryDeep), []);
});

test('JSON: 1 MiB object (timing printed)', () => {
  const items: string[] = [];
  let size = 0;
  let i = 0;
  while (size < 1024 * 1024) {
    const item = JSON.stringify({
      metadata: { name: `pod-${i}`, namespace: 'default', labels: { app: 'web', 'app.kubernetes.io/name': `n${i}` } },
      spec: { containers: [{ name: 'c', image: 'nginx:1.25', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: 'x\n"y"' }] }] },
    });
    items.push(item);
    size += item.length + 1;
    i++;
  }
  const clean = `{"kind":"List","items":[${items.join(',')}]}`;
  const last = items.length - 1;
  const dirty = clean.replace(`"name":"pod-${last}"`, `"name":"pod-${last}","name":"again"`);
  assert.ok(clean.length >= 1024 * 1024);
  JSON.parse(dirty);

  for (let w = 0; w < 3; w++) findDuplicateFieldsJSON(clean); // warm up
  const runs = 10;
  const start = process.hrtime.bigint();
  for (let r = 0; r < runs; r++) assert.deepEqual(findDuplicateFieldsJSON(clean), []);
  const ms = Number(process.hrtime.bigint() - start) / 1e6 / runs;
  const parseStart = process.hrtime.bigint();
  for (let r = 0; r < runs; r++) JSON.parse(clean);
  const parseMs = Number(process.hrtime.bigint() - parseStart) / 1e6 / runs;
  console.log(`findDuplicateFieldsJSON: ${(clean.length / 1024 / 1024).toFixed(2)} MiB (${items.length} objects) in ${ms.toFixed(2)} ms; JSON.parse of the same: ${parseMs.toFixed(2)} ms`);

  assert.deepEqual(findDuplicateFieldsJSON(dirty), [`items[${last}].metadata.name`]);
});

test('JSON: malformed input never throws', () => {
  const samples = [
    '{', '}', '[', ']', '{"a"', '{"a":', '{"a":1,', '{"a":1,"a"', '{"a\\', '{"a\\u00', '{"\\u12"', '"unterminated',
    '{]', '[}', '}}}}{{{{', ',,,::', '{"a":1 "a":2}', '{a:1,a:2}', '{"a":1}}{"a":1,"a":2}', 'nul', 'tru', '-', '\\',
    '{"a":[1,2,{"b":}]}', '\u0000\u0001', '{"a":"\ud800"}', '{"\ud800":1,"\udc00":2}',
  ];
  for (const s of samples) {
    assert.doesNotThrow(() => findDuplicateFieldsJSON(s), s);
    assert.doesNotThrow(() => findDuplicateFieldMessagesJSON(s), s);
  }
  // Every prefix of a valid body.
  for (let i = 0; i <= upstreamCRDJSON.length; i++) findDuplicateFieldsJSON(upstreamCRDJSON.slice(0, i));
  // Random noise made of JSON's own characters.
  const alphabet = '{}[],:"\\ u0aZ1-e.tn';
  let seed = 42;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let k = 0; k < 2000; k++) {
    let s = '';
    for (let j = rand(60); j > 0; j--) s += alphabet[rand(alphabet.length)];
    const found = findDuplicateFieldsJSON(s);
    assert.ok(Array.isArray(found));
  }
});

test('JSON: matches a reference on random documents', () => {
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const keyNames = ['a', 'b', 'a.b', 'x', ''];
  // Builds a random value and the duplicate paths upstream would report, in upstream's order.
  const build = (path: string | null, depth: number, out: string[]): string => {
    const kind = depth > 4 ? 2 : rand(3);
    if (kind === 0) {
      const parts: string[] = [];
      const seen = new Set<string>();
      for (let n = rand(5); n > 0; n--) {
        const k = keyNames[rand(keyNames.length)]!;
        const full = path === null ? k : `${path}.${k}`;
        if (seen.has(k) && !out.includes(full)) out.push(full);
        seen.add(k);
        const encoded = rand(2) === 0 ? JSON.stringify(k) : `"${[...k].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`;
        parts.push(`${encoded}:${build(full, depth + 1, out)}`);
      }
      return `{${parts.join(',')}}`;
    }
    if (kind === 1) {
      const parts: string[] = [];
      for (let n = rand(4), i = 0; i < n; i++) parts.push(build(`${path ?? ''}[${i}]`, depth + 1, out));
      return `[${parts.join(', ')}]`;
    }
    return [JSON.stringify('s{"a":1}'), '1', '-2.5e3', 'true', 'null'][rand(5)]!;
  };
  for (let k = 0; k < 500; k++) {
    const expected: string[] = [];
    const text = build(null, 0, expected);
    assert.deepEqual(findDuplicateFieldsJSON(text), expected.slice(0, 100), text);
  }
});

// ---------------------------------------------------------------------------------------------
// YAML

test('YAML: upstream field validation bodies give upstream messages', () => {
  assert.deepEqual(findDuplicateFieldMessagesYAML(upstreamDeploymentYAML), [
    'line 5: key "name" already set in map',
    'line 12: key "unknownDupe" already set in map',
    'line 14: key "paused" already set in map',
    'line 28: key "imagePullPolicy" already set in map',
  ]);
  assert.deepEqual(findDuplicateFieldMessagesYAML(upstreamCRDYAML), [
    'line 6: key "name" already set in map',
    'line 12: key "unknownDupe" already set in map',
    'line 14: key "knownField1" already set in map',
    'line 20: key "hostPort" already set in map',
  ]);
});

test('YAML: a Document the caller parsed already can be passed in', () => {
  const doc = parseDocument(upstreamCRDYAML, { uniqueKeys: false, version: '1.1', keepSourceTokens: true });
  assert.deepEqual(findDuplicateFieldMessagesYAML(upstreamCRDYAML, doc), findDuplicateFieldMessagesYAML(upstreamCRDYAML));
  assert.equal(findDuplicateFieldMessagesYAML(upstreamCRDYAML, doc).length, 4);
});

test('YAML: nested, in lists, flow style', () => {
  assert.deepEqual(findDuplicateFieldMessagesYAML('a: 1\nb: 2\na: 3\n'), ['line 3: key "a" already set in map']);
  assert.deepEqual(findDuplicateFieldMessagesYAML('metadata:\n  labels:\n    app: x\n    app: y\n'), ['line 4: key "app" already set in map']);
  assert.deepEqual(
    findDuplicateFieldMessagesYAML('items:\n- name: a\n- name: b\n  image: i\n  name: c\n'),
    ['line 5: key "name" already set in map'],
  );
  assert.deepEqual(findDuplicateFieldMessagesYAML('{a: 1, b: {c: 1, c: 2}, a: 3}'), [
    'line 1: key "c" already set in map',
    'line 1: key "a" already set in map',
  ]);
  assert.deepEqual(findDuplicateFieldMessagesYAML('- {x: 1}\n- {x: 1, x: 2}\n'), ['line 2: key "x" already set in map']);
});

test('YAML: a duplicate is reported after the duplicates in its value, at the line its value starts', () => {
  assert.deepEqual(findDuplicateFieldMessagesYAML('a:\n  x: 1\na:\n  z: 1\n  z: 2\n'), [
    'line 5: key "z" already set in map',
    'line 4: key "a" already set in map',
  ]);
  assert.deepEqual(findDuplicateFieldMessagesYAML('a: 1\na:\n- 1\n- 2\n'), ['line 3: key "a" already set in map']);
  assert.deepEqual(findDuplicateFieldMessagesYAML('a: 1\na: |\n  text\n'), ['line 2: key "a" already set in map']);
  assert.deepEqual(findDuplicateFieldMessagesYAML('a: 1\na: &anchor\n  b: 1\n'), ['line 2: key "a" already set in map']);
  assert.deepEqual(findDuplicateFieldMessagesYAML('a: 1\na: !!map\n  b: 1\n'), ['line 2: key "a" already set in map']);
  // An empty value sits right after the `:` in block style, at the next token in flow style or
  // without a `:`, as go-yaml's parser places it.
  assert.deepEqual(findDuplicateFieldMessagesYAML('a: 1\na:\n# comment\n\nb: 2\n'), ['line 2: key "a" already set in map']);
  assert.deepEqual(findDuplicateFieldMessagesYAML('x:\n  a: 1\n  a:\ny: 2\n'), ['line 3: key "a" already set in map']);
  assert.deepEqual(findDuplicateFieldMessagesYAML('? a\n: 1\n? a\n:\nb: 2\n'), ['line 4: key "a" already set in map']);
  assert.deepEqual(findDuplicateFieldMessagesYAML('{a: 1, a:\n}'), ['line 2: key "a" already set in map']);
  assert.deepEqual(findDuplicateFieldMessagesYAML('{a: 1, a\n, b: 2}'), ['line 2: key "a" already set in map']);
  assert.deepEqual(findDuplicateFieldMessagesYAML('? a\n? a\n\n# end\n'), ['line 5: key "a" already set in map']);
  assert.deepEqual(findDuplicateFieldMessagesYAML('? a\n? a'), ['line 3: key "a" already set in map']);
  assert.deepEqual(findDuplicateFieldMessagesYAML('\r\na: 1\r\na: 2\r\n'), ['line 3: key "a" already set in map']);
});

test('YAML: three copies give one message per extra copy', () => {
  assert.deepEqual(findDuplicateFieldMessagesYAML('a: 1\na: 2\na: 3\n'), [
    'line 2: key "a" already set in map',
    'line 3: key "a" already set in map',
  ]);
});

test('YAML: keys compare and print as go-yaml v2 resolves them', () => {
  assert.deepEqual(findDuplicateFieldMessagesYAML('yes: 1\ntrue: 2\nOff: 3\nno: 4\n'), [
    'line 2: key true already set in map',
    'line 4: key false already set in map',
  ]);
  assert.deepEqual(findDuplicateFieldMessagesYAML('1: a\n0x1: b\n01: c\n1_0: d\n10: e\n'), [
    'line 2: key 1 already set in map',
    'line 3: key 1 already set in map',
    'line 5: key 10 already set in map',
  ]);
  assert.deepEqual(findDuplicateFieldMessagesYAML('~: a\nnull: b\n'), ['line 2: key <nil> already set in map']);
  assert.deepEqual(findDuplicateFieldMessagesYAML('1.5: a\n15e-1: b\n1e6: c\n1000000.0: d\n'), [
    'line 2: key 1.5 already set in map',
    'line 4: key 1e+06 already set in map',
  ]);
  assert.deepEqual(findDuplicateFieldMessagesYAML('18446744073709551615: a\n0xffffffffffffffff: b\n'), [
    'line 2: key 0xffffffffffffffff already set in map',
  ]);
  assert.deepEqual(findDuplicateFieldMessagesYAML('.nan: a\n.NaN: b\n'), []); // NaN equals nothing
  // Different Go keys: no duplicate.
  assert.deepEqual(findDuplicateFieldMessagesYAML('1: a\n"1": b\n1.0: c\ntrue: d\n"true": e\n2001-01-01: g\n'), []);
  assert.deepEqual(findDuplicateFieldMessagesYAML('"1": a\n!!str 1: b\n'), ['line 2: key "1" already set in map']);
  // YAML 1.1 as go-yaml v2 reads it: y and n are booleans too.
  assert.deepEqual(findDuplicateFieldMessagesYAML('y: 1\nY: 2\nn: 3\nNO: 4\n'), [
    'line 2: key true already set in map',
    'line 4: key false already set in map',
  ]);
  // Quoted and plain strings are the same key.
  assert.deepEqual(findDuplicateFieldMessagesYAML('app: a\n"app": b\n\'app\': c\n'), [
    'line 2: key "app" already set in map',
    'line 3: key "app" already set in map',
  ]);
});

test('YAML: keys with dots and special characters are quoted like Go', () => {
  assert.deepEqual(
    findDuplicateFieldMessagesYAML('labels:\n  app.kubernetes.io/name: a\n  app.kubernetes.io/name: b\n'),
    ['line 3: key "app.kubernetes.io/name" already set in map'],
  );
  assert.deepEqual(findDuplicateFieldMessagesYAML('\'say "hi"\': 1\n\'say "hi"\': 2\n'), ['line 2: key "say \\"hi\\"" already set in map']);
  assert.deepEqual(findDuplicateFieldMessagesYAML('"tab\\there": 1\n"tab\\there": 2\n'), ['line 2: key "tab\\there" already set in map']);
});

test('YAML: merge keys count, as in go-yaml v2', () => {
  const src = 'base: &b\n  a: 1\n  c: 1\nx:\n  <<: *b\n  a: 2\ny:\n  a: 0\n  <<: {a: 3, d: 4}\n';
  assert.deepEqual(findDuplicateFieldMessagesYAML(src), [
    'line 6: key "a" already set in map',
    'line 9: key "a" already set in map',
  ]);
  // Two merged maps with the same key; the later one in the list is merged first.
  assert.deepEqual(findDuplicateFieldMessagesYAML('p: &p {k: 1}\nq: &q\n  k: 2\nz:\n  <<: [*p, *q]\n'), ['line 1: key "k" already set in map']);
  // A billion-laughs style merge chain stays bounded.
  let bomb = 'a0: &a0 {k: 1}\n';
  for (let i = 1; i < 12; i++) bomb += `a${i}: &a${i}\n  <<: [${Array(8).fill(`*a${i - 1}`).join(', ')}]\n`;
  assert.doesNotThrow(() => findDuplicateFieldMessagesYAML(bomb));
});

test('YAML: no false positives', () => {
  const clean = upstreamDeploymentYAML
    .replace('  name: dupename\n', '')
    .replace('  unknownDupe: valDupe\n', '')
    .replace('  paused: true\n', '')
    .replace('        imagePullPolicy: Always\n', '');
  assert.deepEqual(findDuplicateFieldMessagesYAML(clean), []);
  assert.deepEqual(findDuplicateFieldMessagesYAML('a:\n  x: 1\nb:\n  x: 1\nc:\n- x: 1\n- x: 1\n- {x: 1}\n'), []);
  assert.deepEqual(findDuplicateFieldMessagesYAML('a: &x {k: 1}\nb: *x\nc: *x\n'), []);
  assert.deepEqual(findDuplicateFieldMessagesYAML('a: 1\n---\na: 2\n'), []);
  assert.deepEqual(findDuplicateFieldMessagesYAML(''), []);
  assert.deepEqual(findDuplicateFieldMessagesYAML('just a scalar'), []);
});

test('YAML: big and deep documents', () => {
  const lines: string[] = ['items:'];
  for (let i = 0; i < 5000; i++) lines.push(`- name: pod-${i}`, '  labels:', '    app: web', `    idx: "${i}"`);
  lines.push('- name: last', '  name: again');
  const text = lines.join('\n');
  const start = process.hrtime.bigint();
  const found = findDuplicateFieldMessagesYAML(text);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(`findDuplicateFieldMessagesYAML: ${(text.length / 1024).toFixed(0)} KiB in ${ms.toFixed(1)} ms`);
  assert.deepEqual(found, [`line ${lines.length}: key "name" already set in map`]);

  const depth = 300;
  let deep = '';
  for (let d = 0; d < depth; d++) deep += `${'  '.repeat(d)}k${d}:\n`;
  deep += `${'  '.repeat(depth)}x: 1\n${'  '.repeat(depth)}x: 2\n`;
  assert.deepEqual(findDuplicateFieldMessagesYAML(deep), [`line ${depth + 2}: key "x" already set in map`]);
  // Deeper than the YAML parser itself can go: no throw.
  assert.doesNotThrow(() => findDuplicateFieldMessagesYAML('['.repeat(100000) + ']'.repeat(100000)));
});

test('YAML: malformed input never throws', () => {
  const samples = ['a: [1, 2\nb: {', 'a:\n\t- x', ': :', '? ? ?', '- - -\n  a: 1\n a: 2', '*unknown: 1', 'a: *unknown', '&a [*a]',
    '"unterminated', 'a: 1\n  b: 2', '%YAML 9.9\n---\na: 1', '{a: 1, a: 2', '? [1]\n: 1\n? [1]\n: 2'];
  for (const s of samples) assert.doesNotThrow(() => findDuplicateFieldMessagesYAML(s), s);
  for (let i = 0; i <= upstreamCRDYAML.length; i++) findDuplicateFieldMessagesYAML(upstreamCRDYAML.slice(0, i));
});

// ---------------------------------------------------------------------------------------------

test('goQuote quotes like Go strconv.Quote', () => {
  assert.equal(goQuote('spec.paused'), '"spec.paused"');
  assert.equal(goQuote(''), '""');
  assert.equal(goQuote('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(goQuote('\x07\b\f\n\r\t\v'), '"\\a\\b\\f\\n\\r\\t\\v"');
  assert.equal(goQuote('\x00\x1b\x7f'), '"\\x00\\x1b\\x7f"');
  assert.equal(goQuote('é ü 日本 😀'), '"é ü 日本 😀"');
  assert.equal(goQuote('\u00a0\u00ad\u2028\u200b'), '"\\u00a0\\u00ad\\u2028\\u200b"');
  assert.equal(goQuote('\u{e0001}'), '"\\U000e0001"');
  assert.equal(goQuote('\ud800'), '"\ufffd"');
});
