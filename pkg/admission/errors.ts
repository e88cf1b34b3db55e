// The Status a rejection by admission becomes, worded as upstream's admission.NewForbidden and
// NewNotFound, and upstream's way of joining several errors into one message.
import { isStatusError, qualifiedResource, StatusError, type GroupResource } from '../runtime/errors.js';
import type { Attributes } from './interfaces.js';

/** Several errors as one (upstream's utilerrors.Aggregate): nested lists flattened, equal messages once, `[a, b]` when more than one. */
export class AggregateError extends Error {
  readonly errors: readonly Error[];
  constructor(errors: readonly Error[]) {
    super(aggregateMessage(errors));
    this.name = 'AggregateError';
    this.errors = errors;
  }
}

function flatten(errs: readonly Error[], out: Error[]): Error[] {
  for (const e of errs) {
    if (e instanceof AggregateError) flatten(e.errors, out);
    else out.push(e);
  }
  return out;
}

export function aggregateMessage(errors: readonly Error[]): string {
  const flat = flatten(errors, []);
  if (flat.length === 0) return '';
  if (errors.length === 1) return errors[0]!.message;
  const seen = [...new Set(flat.map((e) => e.message))];
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}

/** The errors joined, or undefined when there are none (upstream's NewAggregate returns nil for an empty list). */
export function newAggregate(errors: readonly Error[]): Error | undefined {
  if (errors.length === 0) return undefined;
  return new AggregateError(errors);
}

/**
 * The name a rejection names: the request's, else the new object's name or generateName (a create
 * before the name is generated), else `Unknown`; an object without metadata gets a name with a
 * slash, which no object can have.
 */
export function rejectedName(attrs: Attributes): string {
  if (attrs.name) return attrs.name;
  const obj = attrs.object;
  if (!obj) return 'Unknown';
  const meta = obj['metadata'];
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return 'Unknown/errorGettingName';
  const m = meta as Record<string, unknown>;
  if (typeof m['name'] === 'string' && m['name']) return m['name'];
  if (typeof m['generateName'] === 'string' && m['generateName']) return m['generateName'];
  return 'Unknown';
}

function resourceString(attrs: Attributes): string {
  const { group, resource } = attrs.resource;
  return group ? `${resource}.${group}` : resource;
}

/** 403 Forbidden for a rejection by a plug-in; an error that already is a Forbidden is passed on unwrapped. */
export function newAdmissionForbidden(attrs: Attributes, err: Error | string): StatusError {
  if (isStatusError(err) && err.reason === 'Forbidden') return err;
  const why = typeof err === 'string' ? err : err.message;
  const name = rejectedName(attrs);
  const res = resourceString(attrs);
  let message: string;
  if (!attrs.resource.resource && !attrs.resource.group) message = `forbidden: ${why}`;
  else if (!name) message = `${res} is forbidden: ${why}`;
  else message = `${res} ${JSON.stringify(name)} is forbidden: ${why}`;
  return new StatusError(403, 'Forbidden', message, { name, group: attrs.resource.group, kind: attrs.resource.resource });
}

/**
 * 403 Forbidden as upstream's apierrors.NewForbidden words it, for the plug-ins that refuse with it
 * rather than with admission.NewForbidden: the name is the object's own, and without one the
 * message reads `pods is forbidden: ...`.
 */
export function newForbiddenNamed(gr: GroupResource, name: string, why: string): StatusError {
  const res = qualifiedResource(gr);
  const message = name ? `${res} ${JSON.stringify(name)} is forbidden: ${why}` : `${res} is forbidden: ${why}`;
  return new StatusError(403, 'Forbidden', message, { ...(name ? { name } : {}), group: gr.group, kind: gr.resource });
}

/** 404 NotFound naming the request's resource (e.g. the namespace of a create does not exist). */
export function newAdmissionNotFound(attrs: Attributes): StatusError {
  const name = rejectedName(attrs);
  return new StatusError(404, 'NotFound', `${resourceString(attrs)} ${JSON.stringify(name)} not found`,
    { name, group: attrs.resource.group, kind: attrs.resource.resource });
}

/**
 * What a plug-in's thrown value becomes for the client. A StatusError keeps its code, reason and
 * message. Upstream would answer any other error with a 500; every in-tree plug-in wraps its
 * refusals in Forbidden itself, so treating a bare error as that refusal keeps a careless plug-in
 * from producing a 500.
 */
export function toAdmissionError(attrs: Attributes, thrown: unknown): StatusError {
  if (isStatusError(thrown)) return thrown;
  return newAdmissionForbidden(attrs, thrown instanceof Error ? thrown : String(thrown));
}
