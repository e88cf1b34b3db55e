// The CEL environment Kubernetes 1.30 compiles expressions in (upstream's environment.MustBaseEnvSet
// at the 1.29 compatibility version, plus what 1.30 adds): the standard library with optional
// types and homogeneous aggregate literals, cel-go's strings (v2) and sets extensions, and the
// Kubernetes libraries: lists, regex, URLs, authorizer, quantity, IP and CIDR. Callers extend a
// clone of it with their variables and types.
import { Environment } from '@marcbachmann/cel-js';
import { registerAuthz } from './library/authz.js';
import { registerIPAndCIDR } from './library/ip.js';
import { registerLists } from './library/lists.js';
import { registerQuantity } from './library/quantity.js';
import { registerRegex } from './library/regex.js';
import { registerStringsAndSets } from './library/strings.js';
import { registerURLs } from './library/urls.js';

let base: Environment | undefined;

function newBase(): Environment {
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: true });
  registerStringsAndSets(env);
  registerLists(env);
  registerRegex(env);
  registerURLs(env);
  registerAuthz(env);
  registerQuantity(env);
  registerIPAndCIDR(env);
  return env;
}

/** A new environment with every Kubernetes 1.30 library, to which variables and types may be added. */
export function newEnvironment(): Environment {
  base ??= newBase();
  return base.clone();
}
