// Every group/version the server can serve, in discovery order, named in the platform's domain.
import { defaultApiDomain, type ApiDomain } from './domain.js';
import type { GroupVersionRegistration } from './registration.js';
import { appsV1 } from './apps/v1/register.js';
import { authenticationV1, authenticationV1beta1 } from './authentication/v1/register.js';
import { authorizationV1 } from './authorization/v1/register.js';
import { autoscalingV1 } from './autoscaling/v1/register.js';
import { autoscalingV2 } from './autoscaling/v2/register.js';
import { batchV1 } from './batch/v1/register.js';
import { certificatesV1 } from './certificates/v1/register.js';
import { coreV1 } from './core/v1/register.js';
import { eventsV1 } from './events/v1/register.js';
import { networkingV1 } from './networking/v1/register.js';
import { policyV1 } from './policy/v1/register.js';
import { rbacV1 } from './rbac/v1/register.js';
import { storageV1 } from './storage/v1/register.js';
import { schedulingV1 } from './scheduling/v1/register.js';
import { coordinationV1 } from './coordination/v1/register.js';
import { nodeV1 } from './node/v1/register.js';
import { discoveryV1 } from './discovery/v1/register.js';
import { admissionRegistrationV1 } from './admissionregistration/v1/register.js';
import { apiextensionsV1 } from './apiextensions/v1/register.js';
import { apiregistrationV1 } from './apiregistration/v1/register.js';

/** The registrations of every group/version, with group names in `domain`. */
export function groupVersions(domain: ApiDomain): GroupVersionRegistration[] {
  return [coreV1(domain), apiregistrationV1(domain), appsV1, eventsV1(domain), authenticationV1(domain), authenticationV1beta1(domain), authorizationV1(domain), autoscalingV2, autoscalingV1(domain), batchV1, certificatesV1(domain), rbacV1(domain), storageV1(domain), networkingV1(domain), policyV1,
    admissionRegistrationV1(domain), apiextensionsV1(domain), schedulingV1(domain), coordinationV1(domain), nodeV1(domain), discoveryV1(domain)];
}

/** The registrations in the default domain (orch.io). */
export const allGroupVersions: GroupVersionRegistration[] = groupVersions(defaultApiDomain);
