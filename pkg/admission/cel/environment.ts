// The CEL environment admission expressions compile in (upstream's plugin/cel compiler): `object`,
// `oldObject` and `params` as dyn, `request` as the AdmissionRequest, `authorizer` with
// `authorizer.requestResource`, `namespaceObject` and `variables` for policies. Upstream
// compiles with StrictCost and the same 1.30 libraries CRD rules use.
import type { Environment } from '@marcbachmann/cel-js';
import { newEnvironment } from '../../cel/environment.js';

export interface AdmissionEnvOptions {
  /** Declares `params` (policies with a paramKind). */
  params?: boolean;
  /** Declares `authorizer` and `authorizer.requestResource`. */
  authorizer?: boolean;
  /** Declares `namespaceObject` (policies). */
  namespaceObject?: boolean;
  /** Declares `variables` with these names, each dyn (policies' variables). */
  variables?: readonly string[];
}

const R = 'kubernetes.AdmissionRequest';

function registerRequestType(env: Environment): void {
  env.registerType(`${R}.Kind`, { fields: { group: 'string', version: 'string', kind: 'string' } });
  env.registerType(`${R}.Resource`, { fields: { group: 'string', version: 'string', resource: 'string' } });
  env.registerType(`${R}.UserInfo`, { fields: { username: 'string', uid: 'string', groups: 'list<string>', extra: 'map<string, list<string>>' } });
  env.registerType(R, {
    fields: {
      kind: `${R}.Kind`, resource: `${R}.Resource`, subResource: 'string',
      requestKind: `${R}.Kind`, requestResource: `${R}.Resource`, requestSubResource: 'string',
      name: 'string', namespace: 'string', operation: 'string', userInfo: `${R}.UserInfo`, dryRun: 'bool', options: 'dyn',
    },
  });
}

/** An environment for admission expressions with the variables `opts` asks for. */
export function admissionEnvironment(opts: AdmissionEnvOptions = {}): Environment {
  const env = newEnvironment();
  registerRequestType(env);
  env.registerVariable('object', 'dyn');
  env.registerVariable('oldObject', 'dyn');
  env.registerVariable('request', R);
  if (opts.params) env.registerVariable('params', 'dyn');
  if (opts.namespaceObject) env.registerVariable('namespaceObject', 'dyn');
  if (opts.authorizer) env.registerVariable('authorizer', 'kubernetes.authorization.Authorizer');
  if (opts.variables) {
    const fields: Record<string, string> = {};
    for (const v of opts.variables) fields[v] = 'dyn';
    env.registerType('kubernetes.Variables', { fields });
    env.registerVariable('variables', 'kubernetes.Variables');
  }
  return env;
}
