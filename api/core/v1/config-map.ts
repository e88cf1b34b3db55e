import { Type, type Static } from '@sinclair/typebox';
import { bool, mapOf, opt, stringMap } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';

export const ConfigMap = topLevel('io.orch.api.core.v1.ConfigMap', {
  immutable: opt(bool(4, {
    'x-orch-emit': 'pointer',
    description: 'When true, data and binaryData can no longer be changed (only the ConfigMap deleted); once set it cannot be unset.',
  })),
  data: opt(stringMap(2, {
    description: 'UTF-8 configuration values by key. Keys are letters, digits, "-", "_" or ".", and must not also appear in binaryData.',
  })),
  binaryData: opt(mapOf(3, Type.String({ format: 'byte' }), {
    description: 'Binary configuration values by key, base64-encoded in JSON. Keys follow the rules of data and must not also appear there.',
  })),
}, { description: 'Non-secret configuration data as key/value pairs, for pods to read as environment variables, arguments or files.' });
export type ConfigMap = Static<typeof ConfigMap>;
