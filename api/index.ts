// Every group/version the server can serve, in discovery order.
import type { GroupVersionRegistration } from './registration.js';
import { appsV1 } from './apps/v1/register.js';
import { coreV1 } from './core/v1/register.js';
import { networkingV1 } from './networking/v1/register.js';
import { policyV1 } from './policy/v1/register.js';
import { rbacV1 } from './rbac/v1/register.js';
import { storageV1 } from './storage/v1/register.js';

export const allGroupVersions: GroupVersionRegistration[] = [coreV1, appsV1, rbacV1, storageV1, networkingV1, policyV1];
