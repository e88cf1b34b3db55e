// The CEL environment admission expressions compile in (upstream's admission/plugin/cel compiler):
// `object` and `oldObject` (dyn, or a kind's type when type checking), `request` as the
// AdmissionRequest, `namespaceObject` as the Namespace, and as asked: `params`, `authorizer` with
// `authorizer.requestResource`, and `variables` with the types their expressions yield. The same
// 1.30 libraries CRD rules use.
import type { Environment } from '@marcbachmann/cel-js';
import { newEnvironment } from '../environment.js';
import { registerDeclType, type DeclType } from '../types.js';

export interface AdmissionEnvOptions {
  /** Declares `params` (policies with a paramKind). */
  params?: boolean;
  /** Declares `authorizer` and `authorizer.requestResource`. */
  authorizer?: boolean;
  /** Declares `variables` with these fields and their CEL types, in order (a policy's variables). */
  variables?: ReadonlyArray<readonly [name: string, type: string]>;
  /** The type of `object` and `oldObject`; dyn when absent (type checking gives the kind's). */
  objectType?: DeclType;
  /** The type of `params`; dyn when absent. */
  paramsType?: DeclType;
  /** Makes the names of the declared types unique where several environments share them (type checking). */
  typeNamePrefix?: string;
}

/** The type name of `variables` (upstream's VariablesTypeName). */
export const VariablesTypeName = 'kubernetes.variables';

function registerRequestType(env: Environment): string {
  const gvk = 'kubernetes.GroupVersionKind';
  const gvr = 'kubernetes.GroupVersionResource';
  const user = 'kubernetes.UserInfo';
  env.registerType(gvk, { fields: { group: 'string', version: 'string', kind: 'string' } });
  env.registerType(gvr, { fields: { group: 'string', version: 'string', resource: 'string' } });
  env.registerType(user, { fields: { username: 'string', uid: 'string', groups: 'list<string>', extra: 'map<string, list<string>>' } });
  const request = 'kubernetes.AdmissionRequest';
  env.registerType(request, {
    fields: {
      kind: gvk, resource: gvr, subResource: 'string', requestKind: gvk, requestResource: gvr, requestSubResource: 'string',
      name: 'string', namespace: 'string', operation: 'string', userInfo: user, dryRun: 'bool', options: 'dyn',
    },
  });
  return request;
}

/** The Namespace as admission expressions see it (upstream's BuildNamespaceType). */
function registerNamespaceType(env: Environment): string {
  const ts = 'google.protobuf.Timestamp';
  env.registerType('kubernetes.NamespaceSpec', { fields: { finalizers: 'list<string>' } });
  env.registerType('kubernetes.NamespaceCondition', { fields: { status: 'string', type: 'string', lastTransitionTime: ts, message: 'string', reason: 'string' } });
  env.registerType('kubernetes.NamespaceStatus', { fields: { conditions: 'list<kubernetes.NamespaceCondition>', phase: 'string' } });
  env.registerType('kubernetes.NamespaceMetadata', {
    fields: {
      name: 'string', generateName: 'string', namespace: 'string', labels: 'map<string, string>', annotations: 'map<string, string>',
      UID: 'string', creationTimestamp: ts, deletionGracePeriodSeconds: 'int', deletionTimestamp: ts, generation: 'int',
      resourceVersion: 'string', finalizers: 'list<string>',
    },
  });
  env.registerType('kubernetes.Namespace', { fields: { metadata: 'kubernetes.NamespaceMetadata', spec: 'kubernetes.NamespaceSpec', status: 'kubernetes.NamespaceStatus' } });
  return 'kubernetes.Namespace';
}

/** An environment for admission expressions with the variables `opts` asks for. */
export function admissionEnvironment(opts: AdmissionEnvOptions = {}): Environment {
  const env = newEnvironment();
  const prefix = opts.typeNamePrefix ?? '';
  env.registerVariable('request', registerRequestType(env));
  env.registerVariable('namespaceObject', registerNamespaceType(env));
  const objectType = opts.objectType ? registerDeclType(env, opts.objectType, `${prefix}Object`) : 'dyn';
  env.registerVariable('object', objectType);
  env.registerVariable('oldObject', objectType);
  if (opts.params) env.registerVariable('params', opts.paramsType ? registerDeclType(env, opts.paramsType, `${prefix}Params`) : 'dyn');
  if (opts.authorizer) env.registerVariable('authorizer', 'kubernetes.authorization.Authorizer');
  if (opts.variables) {
    env.registerType(VariablesTypeName, { fields: Object.fromEntries(opts.variables) });
    env.registerVariable('variables', VariablesTypeName);
  }
  return env;
}
