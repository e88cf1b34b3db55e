// Adding and removing the node lifecycle controller's taints (upstream's SwapNodeControllerTaint,
// AddOrUpdateTaintOnNode, RemoveTaintOffNode and PatchNodeTaints): the whole taint list goes out in
// a strategic merge patch that carries the resourceVersion it was computed from, since the list
// has no merge key and a concurrent change must not be lost; a conflict is retried from a fresh
// read, a few times. Taints added get timeAdded, as upstream stamps them.
import type { Node } from '../../../api/core/v1/node.js';
import { formatTime } from '../../../api/meta/v1/primitives.js';
import { isConflict, isNotFound, type KubeObject, type ResourceClient } from '../../client/index.js';
import { sameTaint, type Taint } from '../taints.js';

export type NodeObject = Node & KubeObject;

/** Upstream's UpdateTaintBackoff: five tries, 100 ms apart. */
const attempts = 5;
const retryMs = 100;

const same = (a: Taint, b: Taint) => sameTaint(a, b) && (a.value ?? '') === (b.value ?? '') && (a.timeAdded ?? '') === (b.timeAdded ?? '');

/** The taint list with `add` put in place of any of the same key and effect, and `remove` taken out. */
export function swappedTaints(taints: readonly Taint[], add: readonly Taint[], remove: readonly Taint[]): Taint[] {
  let out = taints.filter((t) => !remove.some((r) => sameTaint(r, t)));
  for (const a of add) {
    const i = out.findIndex((t) => sameTaint(t, a));
    if (i < 0) out = [...out, a];
    else if (!same(out[i]!, a)) out = out.map((t, j) => (j === i ? a : t));
  }
  return out;
}

/**
 * Puts `add` on the node (stamped now) and takes `remove` off, starting from `cached`; true once
 * the node has them so (or is gone), false when every try met a conflict. Other errors are thrown.
 */
export async function swapNodeTaints(nodes: ResourceClient<NodeObject>, cached: NodeObject, add: readonly Taint[], remove: readonly Taint[]): Promise<boolean> {
  const stamp = formatTime(new Date());
  const stamped = add.map((t) => ({ ...t, timeAdded: stamp }));
  const name = cached.metadata.name ?? '';
  let node = cached;
  for (let i = 0; i < attempts; i++) {
    try {
      if (i > 0) {
        await new Promise((r) => setTimeout(r, retryMs));
        node = await nodes.get(name);
      }
      const have = node.spec?.taints ?? [];
      const next = swappedTaints(have, stamped, remove);
      if (next.length === have.length && next.every((t, j) => same(t, have[j]!))) return true;
      await nodes.patch(name, 'strategic', { metadata: { resourceVersion: node.metadata.resourceVersion }, spec: { taints: next } });
      return true;
    } catch (e) {
      if (isNotFound(e)) return true;
      if (!isConflict(e)) throw e;
    }
  }
  return false;
}
