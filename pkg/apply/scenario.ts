// A test harness for the engine in the shape of structured-merge-diff's merge test fixture: a
// sequence of applies and updates by named managers, then the expected object and field sets.
// Also small JSON Schema builders carrying our markers. Used by the unit tests only.
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { applyManagers } from './apply.js';
import { ApplyConflictError } from './conflict.js';
import { FieldSet } from './field-set.js';
import type { ManagerSet } from './managed-fields.js';
import { pathToString, type Path } from './path.js';
import type { TypeNode } from './type.js';
import { updateManagers } from './update.js';

export type Op =
  | { apply: string; manager: string; apiVersion?: string; conflicts?: [string, Path][] }
  | { forceApply: string; manager: string; apiVersion?: string }
  | { update: string; manager: string; apiVersion?: string }
  /** The kind's schema changes (upstream's ChangeParser): later operations use this type. */
  | { changeType: TypeNode };

export interface Scenario {
  ops: Op[];
  /** The expected live object (YAML); unchecked when absent. */
  object?: string;
  /** The expected set of each manager (exactly these managers); unchecked when absent. */
  managed?: Record<string, Path[]>;
  /** Expected apiVersion per manager, when checked. */
  versions?: Record<string, string>;
}

export interface State {
  live: unknown;
  managers: Map<string, ManagerSet>;
}

const yaml = (text: string): unknown => parse(text) as unknown;

/** Runs the operations from an empty (null) object and checks the outcome. */
export function runScenario(initialType: TypeNode, s: Scenario, state: State = { live: null, managers: new Map() }): void {
  let type = initialType;
  s.ops.forEach((op, i) => {
    if ('changeType' in op) {
      type = op.changeType;
      return;
    }
    const version = op.apiVersion ?? 'v1';
    try {
      if ('update' in op) {
        const next = yaml(op.update);
        state.managers = updateManagers(type, state.live, next, version, state.managers, op.manager);
        state.live = next;
      } else {
        const force = 'forceApply' in op;
        const config = yaml('forceApply' in op ? op.forceApply : op.apply);
        try {
          const r = applyManagers(type, state.live, config, version, state.managers, op.manager, force);
          state.live = r.object;
          state.managers = r.managers;
          if ('apply' in op && op.conflicts) assert.fail(`expected conflicts ${JSON.stringify(op.conflicts.map(([m, p]) => [m, pathToString(p)]))}`);
        } catch (err) {
          if (!(err instanceof ApplyConflictError) || !('apply' in op) || !op.conflicts) throw err;
          const got = err.conflicts.map((c) => `${c.manager} ${pathToString(c.path)}`).sort();
          const want = op.conflicts.map(([m, p]) => `${m} ${pathToString(p)}`).sort();
          assert.deepEqual(got, want, 'conflicts');
        }
      }
    } catch (err) {
      if (err instanceof Error) err.message = `operation ${i}: ${err.message}`;
      throw err;
    }
  });
  if (s.object !== undefined) assert.deepEqual(state.live, yaml(s.object), 'live object');
  if (s.managed !== undefined) {
    const got = Object.fromEntries([...state.managers].map(([m, set]) => [m, set.fields.toString()]));
    const want = Object.fromEntries(Object.entries(s.managed).map(([m, paths]) => [m, FieldSet.of(...paths).toString()]));
    assert.deepEqual(got, want, 'managed fields');
  }
  if (s.versions !== undefined) {
    for (const [m, v] of Object.entries(s.versions)) assert.equal(state.managers.get(m)?.apiVersion, v, `apiVersion of ${m}`);
  }
  for (const [m, set] of state.managers) assert.ok(!set.fields.isEmpty(), `manager ${m} has an empty set`);
}

// ---- schema builders (JSON Schema with our markers) ------------------------------------------

type Schema = Record<string, unknown>;

export const str: Schema = { type: 'string' };
export const num: Schema = { type: 'number' };
export const bool: Schema = { type: 'boolean' };

export function struct(properties: Record<string, Schema>, extra: Schema = {}): Schema {
  return { type: 'object', properties, ...extra };
}

export function mapOf(value: Schema, extra: Schema = {}): Schema {
  return { type: 'object', patternProperties: { '^(.*)$': value }, ...extra };
}

export function listOf(items: Schema, markers: Schema = {}): Schema {
  return { type: 'array', items, ...markers };
}

export const atomicList = (items: Schema) => listOf(items, { 'x-orch-list-type': 'atomic' });
export const setList = (items: Schema) => listOf(items, { 'x-orch-list-type': 'set' });
export const mapList = (items: Schema, ...keys: string[]) => listOf(items, { 'x-orch-list-type': 'map', 'x-orch-list-map-keys': keys });
