// The audit context of a request travels with it (as the user does, see request-user.ts): set by
// the server's audit filters, filled in by the layers after them (impersonation, authorization,
// the verb handlers with request and response objects and admission's annotations).
import type { Response } from 'express';
import type { AuditContext } from '../audit/context.js';
import type { ObjectReference } from '../audit/types.js';
import type { RequestInfo } from './request-info.js';

export function setRequestAudit(res: Response, ctx: AuditContext): void {
  res.locals.audit = ctx;
}

/** The request's audit context; undefined where the audit filters do not run (tests of lower layers). */
export function requestAudit(res: Response): AuditContext | undefined {
  return res.locals.audit as AuditContext | undefined;
}

/** The objectRef parts a request's decoded body cannot supply. */
export function objectRefOf(info: RequestInfo): ObjectReference {
  return { apiGroup: info.apiGroup, apiVersion: info.apiVersion, resource: info.resource, subresource: info.subresource };
}
