// Environment of a container: single variables (EnvVar, with their value sources) and whole
// ConfigMaps or Secrets imported at once (EnvFromSource).
import type { Static } from '@sinclair/typebox';
import { bool, field, object, opt, str } from '../../schema.js';
import { quantity } from '../../meta/v1/primitives.js';
import { embedded } from '../../embedded-fields.js';

const P = 'io.orch.api.core.v1';

/** Selects a field of the pod (downward API), e.g. metadata.name or status.podIP. */
export const ObjectFieldSelector = object(`${P}.ObjectFieldSelector`, {
  apiVersion: opt(str(1, { default: 'v1', description: 'API version in which fieldPath is written. Default v1.' })),
  fieldPath: str(2, { description: 'Path of the field to read, e.g. metadata.name or status.podIP.' }),
}, { required: ['fieldPath'], 'x-orch-map-type': 'atomic', description: 'Selects a field of the pod.' });
export type ObjectFieldSelector = Static<typeof ObjectFieldSelector>;

/** Selects a resource limit or request of a container, e.g. limits.memory. */
export const ResourceFieldSelector = object(`${P}.ResourceFieldSelector`, {
  containerName: opt(str(1, {
    description: 'Container whose resources are read. Required in volumes; for an environment variable, the ' +
      'container itself when empty.',
  })),
  resource: str(2, { description: 'The value to read, e.g. limits.cpu, requests.memory or limits.ephemeral-storage.' }),
  // Upstream's resource.Quantity is a plain struct: always written, "0" when unset.
  divisor: opt(quantity(3, {
    'x-orch-emit': 'always',
    description: 'Unit the value is expressed in, e.g. 1m or 1Mi; unset or 0 means 1.',
  })),
}, {
  required: ['resource'],
  'x-orch-map-type': 'atomic',
  description: 'Selects a resource limit or request of a container.',
});
export type ResourceFieldSelector = Static<typeof ResourceFieldSelector>;

// ConfigMapKeySelector and friends embed LocalObjectReference inline at field 1.
const localName = (kind: string) =>
  embedded(1, { name: opt(str(1, { description: `Name of the ${kind} in the pod's namespace.` })) });

export const ConfigMapKeySelector = object(`${P}.ConfigMapKeySelector`, {
  ...localName('ConfigMap'),
  key: str(2, { description: 'Key whose value is used.' }),
  optional: opt(bool(3, {
    'x-orch-emit': 'pointer',
    description: 'Whether the container may start when the ConfigMap or the key is missing. Default false.',
  })),
}, { required: ['key'], 'x-orch-map-type': 'atomic', description: 'Selects one key of a ConfigMap.' });
export type ConfigMapKeySelector = Static<typeof ConfigMapKeySelector>;

export const SecretKeySelector = object(`${P}.SecretKeySelector`, {
  ...localName('Secret'),
  key: str(2, { description: 'Key whose value is used.' }),
  optional: opt(bool(3, {
    'x-orch-emit': 'pointer',
    description: 'Whether the container may start when the Secret or the key is missing. Default false.',
  })),
}, { required: ['key'], 'x-orch-map-type': 'atomic', description: 'Selects one key of a Secret.' });
export type SecretKeySelector = Static<typeof SecretKeySelector>;

/** Selects a key of an env file found in a volume (EnvFiles feature). */
export const FileKeySelector = object(`${P}.FileKeySelector`, {
  volumeName: str(1, { description: 'Name of the volume that holds the env file.' }),
  path: str(2, { description: 'Path of the file inside the volume; relative, without .. components.' }),
  key: str(3, { description: 'Name of the variable in the file; printable ASCII without =.' }),
  optional: opt(bool(4, {
    default: false,
    'x-orch-emit': 'pointer',
    description: 'When true, a missing file or key leaves the variable unset; when false (the default), it keeps the ' +
      'pod from starting.',
  })),
}, {
  required: ['volumeName', 'path', 'key'],
  'x-orch-map-type': 'atomic',
  description: 'Selects one variable of an env file in a volume of the pod.',
});
export type FileKeySelector = Static<typeof FileKeySelector>;

export const EnvVarSource = object(`${P}.EnvVarSource`, {
  fieldRef: opt(field(1, ObjectFieldSelector, {
    description: 'A field of the pod: metadata.name, metadata.namespace, metadata.uid, metadata.labels[\'<key>\'], ' +
      'metadata.annotations[\'<key>\'], spec.nodeName, spec.serviceAccountName, status.hostIP(s) or status.podIP(s).',
  })),
  resourceFieldRef: opt(field(2, ResourceFieldSelector, {
    description: 'A limit or request of a container: cpu, memory or ephemeral-storage.',
  })),
  configMapKeyRef: opt(field(3, ConfigMapKeySelector, { description: 'A key of a ConfigMap in the pod\'s namespace.' })),
  secretKeyRef: opt(field(4, SecretKeySelector, { description: 'A key of a Secret in the pod\'s namespace.' })),
  fileKeyRef: opt(field(5, FileKeySelector, { description: 'A variable of an env file in a volume (EnvFiles feature).' })),
}, { description: 'Where the value of an environment variable comes from; set exactly one member.' });
export type EnvVarSource = Static<typeof EnvVarSource>;

export const EnvVar = object(`${P}.EnvVar`, {
  name: str(1, { description: 'Name of the variable.' }),
  value: opt(str(2, {
    description: 'Value of the variable. $(NAME) is replaced by an earlier variable of the container (left as is if ' +
      'unknown) and $$ escapes it. Default empty.',
  })),
  valueFrom: opt(field(3, EnvVarSource, { description: 'Source of the value; not allowed with a non-empty value.' })),
}, { required: ['name'], description: 'An environment variable of a container.' });
export type EnvVar = Static<typeof EnvVar>;

export const ConfigMapEnvSource = object(`${P}.ConfigMapEnvSource`, {
  ...localName('ConfigMap'),
  optional: opt(bool(2, {
    'x-orch-emit': 'pointer',
    description: 'Whether the container may start when the ConfigMap is missing. Default false.',
  })),
}, { description: 'A ConfigMap whose keys all become environment variables.' });
export type ConfigMapEnvSource = Static<typeof ConfigMapEnvSource>;

export const SecretEnvSource = object(`${P}.SecretEnvSource`, {
  ...localName('Secret'),
  optional: opt(bool(2, {
    'x-orch-emit': 'pointer',
    description: 'Whether the container may start when the Secret is missing. Default false.',
  })),
}, { description: 'A Secret whose keys all become environment variables.' });
export type SecretEnvSource = Static<typeof SecretEnvSource>;

export const EnvFromSource = object(`${P}.EnvFromSource`, {
  prefix: opt(str(1, { description: 'Text put before every key to make the variable name.' })),
  configMapRef: opt(field(2, ConfigMapEnvSource, { description: 'The ConfigMap to import. Set exactly one source.' })),
  secretRef: opt(field(3, SecretEnvSource, { description: 'The Secret to import. Set exactly one source.' })),
}, { description: 'A set of environment variables imported from a ConfigMap or a Secret.' });
export type EnvFromSource = Static<typeof EnvFromSource>;
