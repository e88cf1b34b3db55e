// Environment of a container: single variables (EnvVar, with their value sources) and whole
// ConfigMaps or Secrets imported at once (EnvFromSource).
import type { Static } from '@sinclair/typebox';
import { bool, field, object, opt, str } from '../../schema.js';
import { quantity } from '../../meta/v1/primitives.js';
import { embedded } from '../../embedded-fields.js';

const P = 'io.orch.api.core.v1';

/** Selects a field of the pod (downward API), e.g. metadata.name or status.podIP. */
export const ObjectFieldSelector = object(`${P}.ObjectFieldSelector`, {
  apiVersion: opt(str(1, { default: 'v1' })),
  fieldPath: str(2),
}, { required: ['fieldPath'], 'x-orch-map-type': 'atomic' });
export type ObjectFieldSelector = Static<typeof ObjectFieldSelector>;

/** Selects a resource limit or request of a container, e.g. limits.memory. */
export const ResourceFieldSelector = object(`${P}.ResourceFieldSelector`, {
  containerName: opt(str(1)),
  resource: str(2),
  divisor: opt(quantity(3)),
}, { required: ['resource'], 'x-orch-map-type': 'atomic' });
export type ResourceFieldSelector = Static<typeof ResourceFieldSelector>;

// ConfigMapKeySelector and friends embed LocalObjectReference inline at field 1.
const localName = () => embedded(1, { name: opt(str(1)) });

export const ConfigMapKeySelector = object(`${P}.ConfigMapKeySelector`, {
  ...localName(),
  key: str(2),
  optional: opt(bool(3)),
}, { required: ['key'], 'x-orch-map-type': 'atomic' });
export type ConfigMapKeySelector = Static<typeof ConfigMapKeySelector>;

export const SecretKeySelector = object(`${P}.SecretKeySelector`, {
  ...localName(),
  key: str(2),
  optional: opt(bool(3)),
}, { required: ['key'], 'x-orch-map-type': 'atomic' });
export type SecretKeySelector = Static<typeof SecretKeySelector>;

/** Selects a key of an env file found in a volume (EnvFiles feature). */
export const FileKeySelector = object(`${P}.FileKeySelector`, {
  volumeName: str(1),
  path: str(2),
  key: str(3),
  optional: opt(bool(4, { default: false })),
}, { required: ['volumeName', 'path', 'key'], 'x-orch-map-type': 'atomic' });
export type FileKeySelector = Static<typeof FileKeySelector>;

export const EnvVarSource = object(`${P}.EnvVarSource`, {
  fieldRef: opt(field(1, ObjectFieldSelector)),
  resourceFieldRef: opt(field(2, ResourceFieldSelector)),
  configMapKeyRef: opt(field(3, ConfigMapKeySelector)),
  secretKeyRef: opt(field(4, SecretKeySelector)),
  fileKeyRef: opt(field(5, FileKeySelector)),
});
export type EnvVarSource = Static<typeof EnvVarSource>;

export const EnvVar = object(`${P}.EnvVar`, {
  name: str(1),
  value: opt(str(2)),
  valueFrom: opt(field(3, EnvVarSource)),
}, { required: ['name'] });
export type EnvVar = Static<typeof EnvVar>;

export const ConfigMapEnvSource = object(`${P}.ConfigMapEnvSource`, {
  ...localName(),
  optional: opt(bool(2)),
});
export type ConfigMapEnvSource = Static<typeof ConfigMapEnvSource>;

export const SecretEnvSource = object(`${P}.SecretEnvSource`, {
  ...localName(),
  optional: opt(bool(2)),
});
export type SecretEnvSource = Static<typeof SecretEnvSource>;

export const EnvFromSource = object(`${P}.EnvFromSource`, {
  prefix: opt(str(1)),
  configMapRef: opt(field(2, ConfigMapEnvSource)),
  secretRef: opt(field(3, SecretEnvSource)),
});
export type EnvFromSource = Static<typeof EnvFromSource>;

