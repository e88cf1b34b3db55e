// CustomResourceDefinitions the integration tests share: a Widget definition using most of what
// a definition can say, and a way to wait until one is served.
import assert from 'node:assert/strict';
import type { TestServer } from './apiserver.js';
import { pollUntil } from './authentication.js';
import type { Client, Response } from './client.js';

export type Json = Record<string, unknown>;

export const group = 'stable.example.com';

/** The path of the CustomResourceDefinitions (of one, with `name`) in the default domain. */
export const crdPath = (name = '') => `/apis/apiextensions.orch.io/v1/customresourcedefinitions${name ? `/${name}` : ''}`;

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

/** A definition's conditions as `type -> status/reason`. */
export function conditions(r: Response): Record<string, string> {
  const cs = ((r.body as Json).status as Json | undefined)?.conditions as { type: string; status: string; reason?: string }[] | undefined;
  return Object.fromEntries((cs ?? []).map((c) => [c.type, `${c.status}/${c.reason ?? ''}`]));
}

/** Creates a definition (as `client`, by default the server's) and waits until it is Established. */
export async function establish(t: TestServer, crd: Json, client: Client = t.client): Promise<Response> {
  const r = await client.post(crdPath(), crd);
  assert.equal(r.status, 201, r.text);
  const name = (crd.metadata as Json).name as string;
  return pollUntil(() => client.get(crdPath(name)), (g) => conditions(g).Established?.startsWith('True') === true, `${name} Established`);
}
