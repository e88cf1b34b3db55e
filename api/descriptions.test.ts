// Every field a client can reach through the served kinds is documented (kubectl explain prints
// these), and every named shape says what it is. Failures list each undocumented field once, by
// the shape that declares it, so a missing description is found where it has to be written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allGroupVersions } from './index.js';

interface Node {
  description?: unknown;
  properties?: Record<string, Node>;
  patternProperties?: Record<string, Node>;
  additionalProperties?: Node | boolean;
  items?: Node;
  anyOf?: Node[];
  'x-orch-type'?: string;
  'x-orch-type-description'?: string;
}

const described = (v: unknown): boolean => typeof v === 'string' && v.trim().length > 0;

/** Where undocumented things are, e.g. `io.orch.api.apps.v1.StatefulSetSpec.replicas`. */
function missingDescriptions(): string[] {
  const missing = new Set<string>();
  const seen = new Set<Node>();
  const walk = (node: Node, where: string): void => {
    if (seen.has(node)) return;
    seen.add(node);
    if (node.properties) {
      const name = node['x-orch-type'];
      const owner = name ?? where;
      if (name && !described(node['x-orch-type-description'])) missing.add(`${name} (the shape itself)`);
      for (const [key, prop] of Object.entries(node.properties)) {
        // A field holding a named shape needs a description of its own, not just the shape's.
        const own = prop.description !== undefined && prop.description !== prop['x-orch-type-description'];
        if (!described(prop.description) || !own) missing.add(`${owner}.${key}`);
        walk(prop, `${owner}.${key}`);
      }
    }
    if (node.items) walk(node.items, `${where}[]`);
    for (const v of Object.values(node.patternProperties ?? {})) walk(v, `${where}{}`);
    if (typeof node.additionalProperties === 'object') walk(node.additionalProperties, `${where}{}`);
    for (const v of node.anyOf ?? []) walk(v, where);
  };
  for (const gv of allGroupVersions) {
    for (const kind of gv.kinds) walk(kind.schema as Node, `${gv.group || 'core'}/${gv.version}.${kind.kind}`);
  }
  return [...missing].sort();
}

test('every field of every served kind, and every named shape, has a description', () => {
  const missing = missingDescriptions();
  assert.equal(missing.length, 0, `${missing.length} undocumented:\n  ${missing.join('\n  ')}`);
});
