// Go structs embedded inline (`json:",inline"`) flatten their fields into the parent's JSON, but
// protobuf keeps them as one sub-message at a field number of the parent. Such properties carry
// their number inside the embedded message as `x-proto` and the parent's field number of the
// embedded message as `x-orch-proto-embedded`, so the protobuf codec can rebuild the nesting.
// A struct embedded in an embedded struct (NamedRuleWithOperations embeds RuleWithOperations,
// which embeds Rule) carries the path of field numbers, outermost first.
import { CloneType, type TProperties } from '@sinclair/typebox';

/**
 * Marks every property of an inline-embedded struct as living in the sub-message at `proto` of
 * the parent (e.g. Probe's ProbeHandler at 1, Volume's VolumeSource at 2); properties already
 * embedded deeper keep their inner numbers after it.
 */
export function embedded<P extends TProperties>(proto: number, properties: P): P {
  const out: TProperties = {};
  for (const [key, schema] of Object.entries(properties)) {
    const inner: unknown = (schema as Record<string, unknown>)['x-orch-proto-embedded'];
    const path = inner === undefined ? proto : [proto, ...(Array.isArray(inner) ? inner : [inner])];
    // CloneType lets the schema's own keys win; the outer path must replace an inner one.
    out[key] = Object.assign(CloneType(schema), { 'x-orch-proto-embedded': path });
  }
  return out as P;
}
