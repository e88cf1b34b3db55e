import { Type, type Static } from '@sinclair/typebox';
import { bool, mapOf, opt, stringMap } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';

export const ConfigMap = topLevel('io.orch.api.core.v1.ConfigMap', {
  immutable: opt(bool(4)),
  data: opt(stringMap(2)),
  binaryData: opt(mapOf(3, Type.String({ format: 'byte' }))),
});
export type ConfigMap = Static<typeof ConfigMap>;
