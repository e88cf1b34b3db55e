// The named shapes of one dialect: every schema carrying `x-orch-type` becomes one definition,
// named by it, and is referenced with $ref wherever it is used.
import { isDeepStrictEqual } from 'node:util';
import { convertSchema, type ConversionContext } from './schema-conversion.js';
import type { Dialect, GroupVersionKind, JsonObject } from './types.js';

/** The name of the definition a named schema becomes. */
export function definitionName(schema: unknown): string {
  const name = (schema as Record<string, unknown> | null)?.['x-orch-type'];
  if (typeof name !== 'string') throw new Error('schema has no x-orch-type, so it has no definition name');
  return name;
}

export class DefinitionSet {
  private readonly defs = new Map<string, JsonObject>();
  private readonly ctx: ConversionContext;

  constructor(readonly dialect: Dialect) {
    this.ctx = {
      dialect,
      define: (name, definition) => {
        const known = this.defs.get(name);
        if (known === undefined) {
          this.defs.set(name, definition);
        } else if (!isDeepStrictEqual(withoutGVK(known), definition)) {
          // Two different shapes under one name would make every $ref to it ambiguous.
          throw new Error(`two different schemas are named ${name}`);
        }
      },
    };
  }

  /** Adds the named schema (and every named shape inside it) and returns its definition name. */
  add(schema: unknown): string {
    const name = definitionName(schema);
    convertSchema(schema, this.ctx);
    return name;
  }

  /** The schema to publish where `schema` is used (a $ref for named shapes). */
  use(schema: unknown): JsonObject {
    return convertSchema(schema, this.ctx);
  }

  /**
   * Marks a definition as the schema of these kinds, under our extension and upstream's
   * (kubectl finds a kind's schema by x-kubernetes-group-version-kind).
   */
  setKinds(name: string, gvks: GroupVersionKind[]): void {
    const def = this.defs.get(name);
    if (!def) throw new Error(`no definition ${name}`);
    const list = () => gvks.map((g) => ({ group: g.group, kind: g.kind, version: g.version }));
    def['x-orch-group-version-kind'] = list();
    def['x-kubernetes-group-version-kind'] = list();
  }

  get(name: string): JsonObject | undefined {
    return this.defs.get(name);
  }

  names(): string[] {
    return [...this.defs.keys()];
  }
}

function withoutGVK(def: JsonObject): JsonObject {
  const rest = { ...def };
  delete rest['x-orch-group-version-kind'];
  delete rest['x-kubernetes-group-version-kind'];
  return rest;
}
