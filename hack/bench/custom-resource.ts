// The custom resource of the create/get/update cells, the counterpart of the 1 KiB ConfigMap: a
// namespaced BenchItem whose spec carries the same 1 KiB payload beside a few typed fields, so
// every write goes through the structural schema as an operator's objects do (pruning, defaults
// for the fields it leaves out, enum, pattern, bounds and list checks).
import { defaultApiDomain } from '../../api/domain.js';
import { eventually } from '../../pkg/util/testing/eventually.js';
import type { ApiClient } from './api-client.js';

const group = 'bench.example.com';
const plural = 'benchitems';
const definitionName = `${plural}.${group}`;
const definitionsPath = `/apis/${defaultApiDomain.group('apiextensions')}/v1/customresourcedefinitions`;

/** The BenchItem definition: a status sub-resource and a schema with defaults and bounds. */
function definition(): unknown {
  return {
    apiVersion: `${defaultApiDomain.group('apiextensions')}/v1`,
    kind: 'CustomResourceDefinition',
    metadata: { name: definitionName },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: 'benchitem', kind: 'BenchItem' },
      versions: [{
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['payload', 'color'],
                properties: {
                  payload: { type: 'string', maxLength: 4096 },
                  color: { type: 'string', enum: ['red', 'green', 'blue'] },
                  size: { type: 'string', pattern: '^[0-9]+(cm|m)$', default: '10cm' },
                  replicas: { type: 'integer', minimum: 0, maximum: 1000, default: 1 },
                  paused: { type: 'boolean', default: false },
                  tags: { type: 'array', maxItems: 8, items: { type: 'string', maxLength: 16 }, 'x-kubernetes-list-type': 'set' },
                },
              },
              status: { type: 'object', properties: { phase: { type: 'string' } } },
            },
          },
        },
      }],
    },
  };
}

/** Creates the BenchItem definition and resolves once it is Established (rejects past `timeoutMs`). */
export async function establishBenchItems(api: ApiClient, timeoutMs: number): Promise<void> {
  await api.ok('POST', definitionsPath, Buffer.from(JSON.stringify(definition())));
  await eventually(async () => {
    const crd = await api.json<{ status?: { conditions?: { type: string; status: string }[] } }>('GET', `${definitionsPath}/${definitionName}`);
    return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
  }, `CustomResourceDefinition ${definitionName} Established`, timeoutMs);
}

/** A BenchItem holding 1 KiB in spec.payload; `seq` varies the content of an update. size, replicas and paused are left to their defaults. */
export function benchItem(namespace: string, name: string, seq = 0, resourceVersion?: string): Buffer {
  return Buffer.from(JSON.stringify({
    apiVersion: `${group}/v1`,
    kind: 'BenchItem',
    metadata: { name, namespace, ...(resourceVersion ? { resourceVersion } : {}) },
    spec: { payload: String(seq).padStart(1024, 'x'), color: 'blue', tags: ['bench', 'crud'] },
  }));
}

export function benchItemsPath(namespace: string): string {
  return `/apis/${group}/v1/namespaces/${namespace}/${plural}`;
}
