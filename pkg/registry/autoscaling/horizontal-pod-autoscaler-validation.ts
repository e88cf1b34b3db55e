// Rules of HorizontalPodAutoscaler (upstream pkg/apis/autoscaling/validation, 1.30): replica bounds,
// the scale target, each metric's source and target, and the behavior's rules and policies.
// Upstream validates the internal version, which is v2's shape: an autoscaling/v1 object is
// converted first, so its refusals name v2's fields as upstream's do.
import type { ApiDomain } from '../../../api/domain.js';
import type { HorizontalPodAutoscaler as V1 } from '../../../api/autoscaling/v1/horizontal-pod-autoscaler.js';
import { horizontalPodAutoscalerV1ToV2 } from '../../../api/autoscaling/v1/register.js';
import type {
  CrossVersionObjectReference, HPAScalingPolicy, HPAScalingRules, HorizontalPodAutoscaler, HorizontalPodAutoscalerSpec,
  MetricIdentifier, MetricSpec, MetricTarget,
} from '../../../api/autoscaling/v2/horizontal-pod-autoscaler.js';
import { forbidden, invalid, notSupported, Path, required, type FieldError } from '../../runtime/field-errors.js';
import { parseQuantity } from '../../runtime/quantity.js';
import type { ResourceNames } from '../core/resource-names.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { isDNS1123Label, isPathSegmentName, nameIsDNSSubdomain } from '../validation/names.js';
import { validateNonnegativeField } from '../validation/numeric.js';

/** Upstream's MaxPeriodSeconds and MaxStabilizationWindowSeconds. */
const maxPeriodSeconds = 1800;
const maxStabilizationWindowSeconds = 3600;

const metricSourceTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const selectPolicies = ['Disabled', 'Max', 'Min'];
const policyTypes = ['Percent', 'Pods'];

/** Where each metric source type keeps its source. */
const sourceField: Record<string, keyof MetricSpec> = {
  Object: 'object', Pods: 'pods', Resource: 'resource', External: 'external', ContainerResource: 'containerResource',
};

function validateCrossVersionObjectReference(ref: CrossVersionObjectReference | undefined, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['kind', 'name'] as const) {
    const v = ref?.[f] ?? '';
    if (!v) errs.push(required(path.child(f), ''));
    else for (const m of isPathSegmentName(v)) errs.push(invalid(path.child(f), v, m));
  }
  return errs;
}

const positive = (q: number | string) => (parseQuantity(q) ?? 0) > 0;

function validateMetricTarget(t: MetricTarget, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (!t.type) errs.push(required(path.child('type'), 'must specify a metric target type'));
  if (t.type !== 'Utilization' && t.type !== 'Value' && t.type !== 'AverageValue') {
    errs.push(invalid(path.child('type'), t.type ?? '', 'must be either Utilization, Value, or AverageValue'));
  }
  if (t.value !== undefined && !positive(t.value)) errs.push(invalid(path.child('value'), t.value, 'must be positive'));
  if (t.averageValue !== undefined && !positive(t.averageValue)) errs.push(invalid(path.child('averageValue'), t.averageValue, 'must be positive'));
  if (t.averageUtilization !== undefined && t.averageUtilization < 1) errs.push(invalid(path.child('averageUtilization'), t.averageUtilization, 'must be greater than 0'));
  return errs;
}

function validateMetricIdentifier(id: MetricIdentifier, path: Path): FieldError[] {
  if (!id.name) return [required(path.child('name'), 'must specify a metric name')];
  return isPathSegmentName(id.name).map((m) => invalid(path.child('name'), id.name, m));
}

/** Rules shared by Resource and ContainerResource targets: a utilization or a raw value, not both. */
function validateResourceTarget(t: MetricTarget, path: Path): FieldError[] {
  const errs = validateMetricTarget(t, path);
  if (t.averageUtilization === undefined && t.averageValue === undefined) {
    errs.push(required(path.child('averageUtilization'), 'must set either a target raw value or a target utilization'));
  }
  if (t.averageUtilization !== undefined && t.averageValue !== undefined) {
    errs.push(forbidden(path.child('averageValue'), 'may not set both a target raw value and a target utilization'));
  }
  return errs;
}

function validateSource(spec: MetricSpec, field: keyof MetricSpec, path: Path, resourceNames: ResourceNames): FieldError[] {
  const target = path.child('target');
  switch (field) {
    case 'object': {
      const s = spec.object!;
      const errs = [...validateCrossVersionObjectReference(s.describedObject, path.child('describedObject')),
        ...validateMetricIdentifier(s.metric, path.child('metric')), ...validateMetricTarget(s.target, target)];
      if (s.target.value === undefined && s.target.averageValue === undefined) {
        errs.push(required(target.child('averageValue'), 'must set either a target value or averageValue'));
      }
      return errs;
    }
    case 'external': {
      const s = spec.external!;
      const errs = [...validateMetricIdentifier(s.metric, path.child('metric')), ...validateMetricTarget(s.target, target)];
      if (s.target.value === undefined && s.target.averageValue === undefined) {
        errs.push(required(target.child('averageValue'), 'must set either a target value for metric or a per-pod target'));
      }
      if (s.target.value !== undefined && s.target.averageValue !== undefined) {
        errs.push(forbidden(target.child('value'), 'may not set both a target value for metric and a per-pod target'));
      }
      return errs;
    }
    case 'pods': {
      const s = spec.pods!;
      const errs = [...validateMetricIdentifier(s.metric, path.child('metric')), ...validateMetricTarget(s.target, target)];
      if (s.target.averageValue === undefined) errs.push(required(target.child('averageValue'), 'must specify a positive target averageValue'));
      return errs;
    }
    case 'resource': {
      const s = spec.resource!;
      const errs = s.name ? [] : [required(path.child('name'), 'must specify a resource name')];
      return [...errs, ...validateResourceTarget(s.target, target)];
    }
    default: {
      const s = spec.containerResource!;
      const errs = s.name ? resourceNames.validateContainerResourceName(s.name, path.child('name')) : [required(path.child('name'), 'must specify a resource name')];
      if (!s.container) errs.push(required(path.child('container'), 'must specify a container'));
      else errs.push(...isDNS1123Label(s.container).map((m) => invalid(path.child('container'), s.container, m)));
      return [...errs, ...validateResourceTarget(s.target, target)];
    }
  }
}

function validateMetricSpec(spec: MetricSpec, path: Path, resourceNames: ResourceNames): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec.type) errs.push(required(path.child('type'), 'must specify a metric source type'));
  if (!metricSourceTypes.includes(spec.type)) errs.push(notSupported(path.child('type'), spec.type, metricSourceTypes));
  // Upstream checks only the first source present; more than one is refused below.
  const present = (['object', 'external', 'pods', 'resource', 'containerResource'] as const).filter((f) => spec[f] !== undefined);
  if (present.length > 0) errs.push(...validateSource(spec, present[0]!, path.child(present[0]!), resourceNames));
  const expected = sourceField[spec.type];
  if (expected && spec[expected] === undefined) errs.push(required(path.child(expected), 'must populate information for the given metric source'));
  if (present.length > 1) {
    for (const f of present) if (f !== expected) errs.push(forbidden(path.child(f), 'must populate the given metric source only'));
  }
  return errs;
}

function validateScalingPolicy(p: HPAScalingPolicy, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (!policyTypes.includes(p.type)) errs.push(notSupported(path.child('type'), p.type, policyTypes));
  if (!(p.value > 0)) errs.push(invalid(path.child('value'), p.value, 'must be greater than zero'));
  if (!(p.periodSeconds > 0)) errs.push(invalid(path.child('periodSeconds'), p.periodSeconds, 'must be greater than zero'));
  if (p.periodSeconds > maxPeriodSeconds) errs.push(invalid(path.child('periodSeconds'), p.periodSeconds, `must be less than or equal to ${maxPeriodSeconds}`));
  return errs;
}

function validateScalingRules(rules: HPAScalingRules | undefined, path: Path): FieldError[] {
  if (!rules) return [];
  const errs: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (window !== undefined && window < 0) errs.push(invalid(path.child('stabilizationWindowSeconds'), window, 'must be greater than or equal to zero'));
  if (window !== undefined && window > maxStabilizationWindowSeconds) {
    errs.push(invalid(path.child('stabilizationWindowSeconds'), window, `must be less than or equal to ${maxStabilizationWindowSeconds}`));
  }
  if (rules.selectPolicy !== undefined && !selectPolicies.includes(rules.selectPolicy)) {
    errs.push(notSupported(path.child('selectPolicy'), rules.selectPolicy, selectPolicies));
  }
  const policies = rules.policies ?? [];
  if (policies.length === 0) errs.push(required(path.child('policies'), 'must specify at least one Policy'));
  policies.forEach((p, i) => errs.push(...validateScalingPolicy(p, path.child('policies').index(i))));
  return errs;
}

function validateSpec(spec: HorizontalPodAutoscalerSpec | undefined, minReplicasLowerBound: number, resourceNames: ResourceNames): FieldError[] {
  if (!spec) return [];
  const path = Path.root('spec');
  const errs: FieldError[] = [];
  const min = spec.minReplicas;
  if (min !== undefined && min < minReplicasLowerBound) {
    errs.push(invalid(path.child('minReplicas'), min, `must be greater than or equal to ${minReplicasLowerBound}`));
  }
  if (spec.maxReplicas < 1) errs.push(invalid(path.child('maxReplicas'), spec.maxReplicas, 'must be greater than 0'));
  if (min !== undefined && spec.maxReplicas < min) errs.push(invalid(path.child('maxReplicas'), spec.maxReplicas, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateCrossVersionObjectReference(spec.scaleTargetRef, path.child('scaleTargetRef')));
  const metrics = spec.metrics ?? [];
  metrics.forEach((m, i) => errs.push(...validateMetricSpec(m, path.child('metrics').index(i), resourceNames)));
  if (min === 0 && !metrics.some((m) => m.type === 'Object' || m.type === 'External')) {
    errs.push(forbidden(path.child('metrics'), 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  if (spec.behavior) {
    errs.push(...validateScalingRules(spec.behavior.scaleUp, path.child('behavior', 'scaleUp')));
    errs.push(...validateScalingRules(spec.behavior.scaleDown, path.child('behavior', 'scaleDown')));
  }
  return errs;
}

function validateStatus(hpa: HorizontalPodAutoscaler): FieldError[] {
  const path = Path.root('status');
  return [
    ...validateNonnegativeField(hpa.status?.currentReplicas ?? 0, path.child('currentReplicas')),
    ...validateNonnegativeField(hpa.status?.desiredReplicas ?? 0, path.child('desiredReplicas')),
  ];
}

/** The rules of autoscaling/v2 autoscalers. HPAScaleToZero is off, as upstream's default: minReplicas 0 only stays where it was. */
export function horizontalPodAutoscalerValidation(resourceNames: ResourceNames): KindValidation<HorizontalPodAutoscaler> {
  return {
    name: nameIsDNSSubdomain,
    validate: (hpa) => validateSpec(hpa.spec, 1, resourceNames),
    validateUpdate: (hpa, old) => validateSpec(hpa.spec, old.spec?.minReplicas === 0 ? 0 : 1, resourceNames),
    validateStatusUpdate: validateStatus,
  };
}

/** The rules of autoscaling/v1 autoscalers: v2's, on the v2 object each converts to. */
export function horizontalPodAutoscalerV1Validation(domain: ApiDomain, resourceNames: ResourceNames): KindValidation<V1> {
  const v2 = horizontalPodAutoscalerValidation(resourceNames);
  const toV2 = horizontalPodAutoscalerV1ToV2(domain);
  return {
    name: v2.name,
    validate: (hpa) => v2.validate(toV2(hpa)),
    validateUpdate: (hpa, old) => v2.validateUpdate(toV2(hpa), toV2(old)),
    validateStatusUpdate: (hpa, old) => v2.validateStatusUpdate!(toV2(hpa), toV2(old)),
  };
}
