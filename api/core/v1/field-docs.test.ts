// Every property of the pod template family carries a description (OpenAPI, `kubectl explain`)
// and, where it has one, a valid `x-orch-emit` marker (how upstream's Go type encodes it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import type { TSchema } from '@sinclair/typebox';
import { topLevel } from '../../meta/v1/types.js';
import * as affinity from './affinity.js';
import * as container from './container.js';
import * as env from './env.js';
import * as objectReference from './object-reference.js';
import * as pvc from './persistent-volume-claim.js';
import * as podTemplate from './pod-template.js';
import * as probe from './probe.js';
import * as resourceRequirements from './resource-requirements.js';
import * as securityContext from './security-context.js';
import * as toleration from './toleration.js';
import * as topologySpread from './topology-spread-constraint.js';
import * as volume from './volume.js';

const modules = {
  affinity, container, env, objectReference, pvc, podTemplate, probe, resourceRequirements, securityContext,
  toleration, topologySpread, volume,
};

const EmitValues = new Set(['omitempty', 'pointer', 'always']);

type Node = TSchema & {
  properties?: Record<string, Node>;
  required?: string[];
  items?: Node;
  additionalProperties?: Node | boolean;
  patternProperties?: Record<string, Node>;
  anyOf?: Node[];
};

const isShape = (v: unknown): v is Node =>
  typeof v === 'object' && v !== null && typeof (v as Node)['x-orch-type'] === 'string' && !!(v as Node).properties;

/** The named object shapes the modules export, by definition name. */
function exportedShapes(mods: Record<string, Record<string, unknown>>): Map<string, Node> {
  const out = new Map<string, Node>();
  for (const mod of Object.values(mods)) {
    for (const value of Object.values(mod)) if (isShape(value)) out.set(value['x-orch-type'] as string, value);
  }
  return out;
}

// apiVersion, kind and metadata of a kind come from topLevel and are described where it declares them.
const envelope = topLevel('envelope', {}).properties as Record<string, Node>;
const fromEnvelope = (key: string, prop: Node) => key in envelope && isDeepStrictEqual(prop, envelope[key]);

/**
 * Problems of the shapes in `owned`: a shape or property without a description, or a property with
 * an x-orch-emit outside the three values. Shapes nested in properties, list items and map values are
 * walked too (each use of a shape is a copy that may override its description).
 */
function problems(owned: Map<string, Node>): string[] {
  const out: string[] = [];
  const seen = new Set<Node>();
  const described = (n: Node) => typeof n.description === 'string' && n.description.trim() !== '';
  const visit = (n: Node | undefined, path: string) => {
    if (!n || typeof n !== 'object' || seen.has(n)) return;
    seen.add(n);
    const name = n['x-orch-type'] as string | undefined;
    if (n.properties && name !== undefined && owned.has(name)) {
      for (const [key, prop] of Object.entries(n.properties)) {
        if (fromEnvelope(key, prop)) continue;
        if (!described(prop)) out.push(`${path}.${key} (${name}): no description`);
        const emit = prop['x-orch-emit'] as unknown;
        if (emit !== undefined && !EmitValues.has(emit as string)) {
          out.push(`${path}.${key} (${name}): x-orch-emit ${JSON.stringify(emit)}`);
        }
        visit(prop, `${path}.${key}`);
      }
    }
    visit(n.items, `${path}[]`);
    if (typeof n.additionalProperties === 'object') visit(n.additionalProperties, `${path}{}`);
    for (const v of Object.values(n.patternProperties ?? {})) visit(v, `${path}{}`);
    for (const v of n.anyOf ?? []) visit(v, path);
  };
  for (const [name, shape] of owned) {
    if (!described(shape)) out.push(`${name}: no description`);
    visit(shape, name.split('.').pop()!);
  }
  return out;
}

const shapes = exportedShapes(modules);

test('every exported shape and every property of the pod template family is described, with valid emit markers', () => {
  // The walk must reach the family, or the check below proves nothing.
  for (const name of ['PodTemplateSpec', 'PodSpec', 'Container', 'EphemeralContainer', 'Volume', 'Probe', 'EnvVar',
    'PodSecurityContext', 'Affinity', 'Toleration', 'TopologySpreadConstraint', 'PersistentVolumeClaim', 'ObjectReference']) {
    assert.ok(shapes.has(`io.orch.api.core.v1.${name}`), `${name} is exported`);
  }
  assert.ok(shapes.size > 100, `found ${shapes.size} shapes`);
  assert.deepEqual(problems(shapes), []);
});

test('the check reports missing descriptions and unknown emit markers', () => {
  const bad = new Map<string, Node>([['io.orch.api.core.v1.Bad', {
    'x-orch-type': 'io.orch.api.core.v1.Bad',
    type: 'object',
    properties: {
      a: { type: 'string' },
      b: { type: 'string', description: 'ok', 'x-orch-emit': 'sometimes' },
      c: { type: 'array', description: 'ok', items: { ...podTemplate.HostAlias, properties: { ip: { type: 'string' } } } },
    },
  } as unknown as Node]]);
  bad.set('io.orch.api.core.v1.HostAlias', podTemplate.HostAlias as Node);
  assert.deepEqual(problems(bad).sort(), [
    'Bad.a (io.orch.api.core.v1.Bad): no description',
    'Bad.b (io.orch.api.core.v1.Bad): x-orch-emit "sometimes"',
    'Bad.c[].ip (io.orch.api.core.v1.HostAlias): no description',
    'io.orch.api.core.v1.Bad: no description',
  ]);
});

/** How a property is written: its marker, else required -> always, struct -> pointer, anything else -> omitempty. */
function emitOf(shape: Node, key: string): string {
  const prop = shape.properties![key]!;
  const marked = prop['x-orch-emit'] as string | undefined;
  if (marked) return marked;
  if (shape.required?.includes(key)) return 'always';
  return isShape(prop) ? 'pointer' : 'omitempty';
}

test('emit markers follow upstream Go encoding for representative fields', () => {
  const cases: [Node, string, string][] = [
    // Pointer scalars keep a present zero value.
    [podTemplate.PodSpec, 'terminationGracePeriodSeconds', 'pointer'],
    [podTemplate.PodSpec, 'automountServiceAccountToken', 'pointer'],
    [securityContext.SecurityContext, 'runAsUser', 'pointer'],
    [volume.SecretVolumeSource, 'defaultMode', 'pointer'],
    // Non-pointer structs are always written, even when tagged omitempty.
    [podTemplate.PodTemplateSpec, 'metadata', 'always'],
    [podTemplate.PodTemplateSpec, 'spec', 'always'],
    [container.Container, 'resources', 'always'],
    [pvc.PersistentVolumeClaimSpec, 'resources', 'always'],
    [env.ResourceFieldSelector, 'divisor', 'always'],
    [pvc.PersistentVolumeClaimCondition, 'lastProbeTime', 'always'],
    // Fields without omitempty.
    [volume.ProjectedVolumeSource, 'sources', 'always'],
    [objectReference.TypedLocalObjectReference, 'apiGroup', 'always'],
    // Required here but omitempty upstream.
    [podTemplate.HostAlias, 'ip', 'omitempty'],
    [volume.PodCertificateProjection, 'signerName', 'omitempty'],
    // Defaults need no marker.
    [podTemplate.PodSpec, 'hostNetwork', 'omitempty'],
    [podTemplate.PodSpec, 'affinity', 'pointer'],
    [podTemplate.PodSpec, 'containers', 'always'],
  ];
  for (const [shape, key, want] of cases) {
    assert.equal(emitOf(shape as Node, key), want, `${shape['x-orch-type'] as string}.${key}`);
  }
});
