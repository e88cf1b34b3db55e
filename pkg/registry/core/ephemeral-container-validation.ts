// The rules of a pod's ephemeral (debugging) containers and the pod-only container rules, as
// upstream's validateEphemeralContainers and validateContainerOnlyForPod state them.
import type { PodSpec } from '../../../api/core/v1/pod-template.js';
import type { Container, EphemeralContainer } from '../../../api/core/v1/container.js';
import { duplicate, forbidden, invalid, notFound, type FieldError, type Path } from '../../runtime/field-errors.js';
import { validateContainerCommon, type ContainerContext } from './container-validation.js';

/** Fields of a container that an ephemeral container may not set (upstream allows a list; these are the rest). */
const disallowed = [
  'ports', 'resources', 'resizePolicy', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'restartPolicy',
  'restartPolicyRules',
] as const;

const notForEphemeral = 'cannot be set for an Ephemeral Container';

/** Whether Go would see the field as set (non-zero). */
function isSet(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.values(v).some(isSet);
  return v !== '' && v !== 0 && v !== false;
}

/** An image with leading or trailing whitespace is refused in pods (templates allow it). */
export function validateContainerOnlyForPod(c: { image?: string }, path: Path): FieldError[] {
  const image = c.image ?? '';
  return image.trim() !== image ? [invalid(path.child('image'), image, 'must not have leading or trailing whitespace')] : [];
}

/** spec.ephemeralContainers of a pod: common container rules, unique names, a real target, no workload fields. */
export function validateEphemeralContainers(spec: PodSpec, path: Path, ctx: ContainerContext): FieldError[] {
  const ephemeral: EphemeralContainer[] = spec.ephemeralContainers ?? [];
  if (ephemeral.length === 0) return [];
  const errs: FieldError[] = [];
  const others = new Set([...(spec.containers ?? []), ...(spec.initContainers ?? [])].map((c) => c.name));
  const all = new Set(others);
  ephemeral.forEach((ec, i) => {
    const p = path.index(i);
    errs.push(...validateContainerCommon(ec as Container, p, ctx));
    errs.push(...validateContainerOnlyForPod(ec, p));
    if (all.has(ec.name)) errs.push(duplicate(p.child('name'), ec.name));
    else all.add(ec.name);
    if (ec.targetContainerName && !others.has(ec.targetContainerName)) {
      errs.push(notFound(p.child('targetContainerName'), ec.targetContainerName));
    }
    const fields = ec as Record<string, unknown>;
    for (const f of disallowed) if (isSet(fields[f])) errs.push(forbidden(p.child(f), notForEphemeral));
    (ec.volumeMounts ?? []).forEach((m, j) => {
      if (m.subPath) errs.push(forbidden(p.child('volumeMounts').index(j).child('subPath'), notForEphemeral));
      if (m.subPathExpr) errs.push(forbidden(p.child('volumeMounts').index(j).child('subPathExpr'), notForEphemeral));
    });
  });
  return errs;
}
