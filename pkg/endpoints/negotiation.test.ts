import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiDomain } from '../../api/domain.js';
import { bodyFormat, negotiateOutput, parseAccept } from './negotiation.js';

const resource = { formats: ['json', 'yaml', 'protobuf'] as const, conversions: ['Table', 'PartialObjectMetadata', 'PartialObjectMetadataList'] as const };
const discovery = { formats: ['json', 'yaml'] as const, conversions: [] as const };

test('q-values order the offers; ties keep the client order', () => {
  assert.deepEqual(parseAccept('a/b;q=0.5, c/d, e/f;q=0').map((r) => `${r.type}/${r.subtype}`), ['c/d', 'a/b']);
  assert.deepEqual(negotiateOutput('application/yaml;q=0.4, application/json;q=0.9', resource), { format: 'json' });
  assert.deepEqual(negotiateOutput('application/vnd.orch.protobuf, application/json', resource), { format: 'protobuf', mediaType: 'application/vnd.orch.protobuf' });
  assert.deepEqual(negotiateOutput('*/*', resource), { format: 'json' });
  assert.deepEqual(negotiateOutput(undefined, resource), { format: 'json' });
});

test('upstream\'s protobuf type is served whatever the domain, and answered in the type asked for', () => {
  assert.deepEqual(negotiateOutput('application/vnd.kubernetes.protobuf, */*', resource), { format: 'protobuf', mediaType: 'application/vnd.kubernetes.protobuf' });
  const k8s = { ...resource, domain: apiDomain('k8s.io') };
  assert.deepEqual(negotiateOutput('application/vnd.kubernetes.protobuf', k8s), { format: 'protobuf', mediaType: 'application/vnd.kubernetes.protobuf' });
  assert.throws(() => negotiateOutput('application/vnd.orch.protobuf', k8s), (e: { code?: number }) => e.code === 406);
  assert.deepEqual(negotiateOutput('application/json;as=Table;g=meta.k8s.io;v=v1', k8s), { format: 'json', as: 'Table', group: 'meta.k8s.io' });
  assert.equal(bodyFormat('application/vnd.kubernetes.protobuf'), 'protobuf');
  assert.equal(bodyFormat('application/vnd.kubernetes.protobuf', apiDomain('k8s.io')), 'protobuf');
  assert.throws(() => bodyFormat('application/vnd.orch.protobuf', apiDomain('k8s.io')), (e: { code?: number }) => e.code === 415);
});

test('a Table is served only for our group and version, and falls back down the list', () => {
  assert.deepEqual(negotiateOutput('application/json;as=Table;g=meta.orch.io;v=v1, application/json', resource), { format: 'json', as: 'Table', group: 'meta.orch.io' });
  assert.deepEqual(negotiateOutput('application/json;as=Table;g=meta.k8s.io;v=v1, application/json', resource), { format: 'json', as: 'Table', group: 'meta.k8s.io' }, 'stock kubectl asks for upstream\'s group');
  assert.deepEqual(negotiateOutput('application/json;as=Table;g=example.com;v=v1, application/json', resource), { format: 'json' });
  assert.deepEqual(negotiateOutput('application/json;as=Table;g=meta.orch.io;v=v1beta1,application/json', resource), { format: 'json' });
  assert.deepEqual(negotiateOutput('application/json;as=Table;g=meta.orch.io;v=v1, application/json', discovery), { format: 'json' });
  assert.deepEqual(negotiateOutput('application/vnd.orch.protobuf;as=Table;g=meta.orch.io;v=v1, application/yaml', resource), { format: 'yaml' });
  assert.deepEqual(negotiateOutput('application/json;as=PartialObjectMetadataList;g=meta.orch.io;v=v1', resource), { format: 'json', as: 'PartialObjectMetadataList', group: 'meta.orch.io' });
});

test('nothing acceptable is 406; discovery has no protobuf form', () => {
  assert.throws(() => negotiateOutput('text/html', resource), (e: { code?: number }) => e.code === 406);
  assert.throws(() => negotiateOutput('application/json;as=Table;g=example.com;v=v1', resource), (e: { code?: number }) => e.code === 406);
  assert.throws(() => negotiateOutput('application/vnd.orch.protobuf', discovery), (e: { code?: number }) => e.code === 406);
});

test('the aggregated discovery document: the domain\'s apidiscovery group, v2 or v2beta1, as JSON or YAML, where the endpoint serves it', () => {
  const roots = { ...discovery, aggregatedDiscovery: true };
  const v2 = 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList';
  assert.deepEqual(negotiateOutput(`${v2},application/json`, roots), { format: 'json', aggregatedDiscovery: 'v2' });
  assert.deepEqual(negotiateOutput('application/yaml;g=apidiscovery.orch.io;v=v2beta1;as=APIGroupDiscoveryList', roots), { format: 'yaml', aggregatedDiscovery: 'v2beta1' });
  // Upstream's group is ours only under k8s.io; a version not served falls through to the next offer.
  const kubectl = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
  assert.deepEqual(negotiateOutput(kubectl, roots), { format: 'json' });
  assert.deepEqual(negotiateOutput(kubectl, { ...roots, domain: apiDomain('k8s.io') }), { format: 'json', aggregatedDiscovery: 'v2' });
  assert.deepEqual(negotiateOutput('application/json;g=apidiscovery.orch.io;v=v3;as=APIGroupDiscoveryList,application/json', roots), { format: 'json' });
  // Not as protobuf here, and not from an endpoint that does not serve it.
  assert.throws(() => negotiateOutput('application/vnd.orch.protobuf;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList', roots), (e: { code?: number }) => e.code === 406);
  assert.deepEqual(negotiateOutput(`${v2},application/json`, discovery), { format: 'json' });
  assert.throws(() => negotiateOutput(v2, discovery), (e: { code?: number }) => e.code === 406);
});
