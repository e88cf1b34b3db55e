// The scale sub-resource of a custom resource: its autoscaling/v1 Scale read from and written to
// the JSON paths the definition declares (upstream's scaleFromCustomResource).
import type { ScaleAdapter } from '../../../api/registration.js';
import { invalid, type FieldError } from '../../runtime/field-errors.js';

interface ScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const steps = (path: string) => path.replace(/^\./, '').split('.');

/** The value at a dot path: undefined when a step is missing. */
function at(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const s of steps(path)) {
    if (!isObject(cur)) return undefined;
    cur = cur[s];
  }
  return cur;
}

const INT32_MAX = 2147483647;

/** Why the integer at `path` cannot be a replica count (upstream's NestedInt64 and range checks), if it cannot. */
function replicasProblem(obj: unknown, path: string): FieldError | undefined {
  const v = at(obj, path);
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    return invalid(path, 0, `${steps(path).join('.')} accessor error: ${JSON.stringify(v)} is of the type ${typeof v === 'number' ? 'float64' : Array.isArray(v) ? '[]interface {}' : typeof v}, expected int64`);
  }
  if (v < 0) return invalid(path, v, 'should be a non-negative integer');
  if (v > INT32_MAX) return invalid(path, v, `should be less than or equal to ${INT32_MAX}`);
  return undefined;
}

/** How a custom resource maps onto its Scale, and the checks its writes must pass. */
export interface CustomResourceScale extends ScaleAdapter {
  /** The errors of the replica counts and selector of an object (upstream's ValidateScaleSpec and ValidateScaleStatus). */
  validate(obj: Record<string, unknown>, statusOnly: boolean): FieldError[];
}

export function customResourceScale(paths: ScalePaths): CustomResourceScale {
  const int = (obj: unknown, path: string) => {
    const v = at(obj, path);
    return typeof v === 'number' && Number.isInteger(v) ? v : 0;
  };
  return {
    specReplicas: (obj) => int(obj, paths.specReplicasPath),
    hasSpecReplicas: (obj) => at(obj, paths.specReplicasPath) !== undefined,
    setSpecReplicas: (obj, replicas) => {
      let cur: Record<string, unknown> = obj;
      const path = steps(paths.specReplicasPath);
      for (const s of path.slice(0, -1)) {
        if (!isObject(cur[s])) cur[s] = {};
        cur = cur[s] as Record<string, unknown>;
      }
      cur[path[path.length - 1]!] = replicas;
    },
    statusReplicas: (obj) => int(obj, paths.statusReplicasPath),
    selector: (obj) => {
      if (!paths.labelSelectorPath) return '';
      const v = at(obj, paths.labelSelectorPath);
      return typeof v === 'string' ? v : '';
    },
    validate: (obj, statusOnly) => {
      const errs: FieldError[] = [];
      const spec = statusOnly ? undefined : replicasProblem(obj, paths.specReplicasPath);
      if (spec) errs.push(spec);
      const status = replicasProblem(obj, paths.statusReplicasPath);
      if (status) errs.push(status);
      if (paths.labelSelectorPath) {
        const v = at(obj, paths.labelSelectorPath);
        if (v !== undefined && typeof v !== 'string') {
          errs.push(invalid(paths.labelSelectorPath, '', `${steps(paths.labelSelectorPath).join('.')} accessor error: ${JSON.stringify(v)} is of the type ${typeof v}, expected string`));
        }
      }
      return errs;
    },
  };
}
