// What PodSecurity decides about one request (upstream's AdmissionResponse as the library fills it):
// allowed or refused with a Status, warnings for the client, and audit annotations whose keys the
// plug-in prefixes with `pod-security.<keyDomain>/`.
import { StatusError } from '../../runtime/errors.js';

export interface Response {
  /** The refusal; undefined when the request is allowed. */
  error?: StatusError;
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

export const allowedResponse = (auditAnnotations: Record<string, string> = {}, warnings: string[] = []): Response => ({ warnings, auditAnnotations });

/** A refusal other than a policy's, its message also recorded as the `error` annotation. */
export function errorResponse(error: StatusError, cause?: unknown): Response {
  const detail = cause === undefined ? error.message : `${error.message}: ${cause instanceof Error ? cause.message : String(cause)}`;
  return { error, warnings: [], auditAnnotations: { error: detail } };
}

/** The Forbidden of a pod that violates the enforced policy, as upstream's apierrors.NewForbidden words it. */
export function newPolicyForbidden(group: string, resource: string, name: string, why: string): StatusError {
  const qualified = group ? `${resource}.${group}` : resource;
  const message = name ? `${qualified} "${name}" is forbidden: ${why}` : `${qualified} is forbidden: ${why}`;
  return new StatusError(403, 'Forbidden', message, { ...(name ? { name } : {}), group, kind: resource });
}
