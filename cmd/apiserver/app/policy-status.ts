// Starts the type checking of ValidatingAdmissionPolicies in the API server: the policies' cache
// feeds the status controller, which checks each policy against the served kinds' OpenAPI schemas
// and writes its status through the policies' store.
import type { ApiDomain } from '../../../api/domain.js';
import { admissionRegistrationGroup } from '../../../api/admissionregistration/v1/register.js';
import type { ValidatingAdmissionPolicy } from '../../../api/admissionregistration/v1/validating-admission-policy.js';
import type { ObjectInterfaces } from '../../../pkg/admission/interfaces.js';
import { PolicyStatusController } from '../../../pkg/admission/policy/validating/status-controller.js';
import { TypeChecker } from '../../../pkg/admission/policy/validating/type-checking.js';
import type { Schema } from '../../../pkg/cel/types.js';
import { kindSchemaResolver } from '../../../pkg/endpoints/openapi/kind-schemas.js';
import type { Logger } from '../../../pkg/log/logger.js';
import type { Store } from '../../../pkg/registry/generic/store.js';
import type { Scheme } from '../../../pkg/runtime/scheme.js';
import type { StoredObject } from '../../../pkg/storage/interface.js';
import type { SharedCaches } from './caches.js';

export interface PolicyStatusDeps {
  domain: ApiDomain;
  stores: ReadonlyMap<string, Store>;
  caches: SharedCaches;
  scheme: Scheme;
  objects: ObjectInterfaces;
  logger: Logger;
}

/** The running controller, or undefined when --runtime-config turned the policies off. */
export function startPolicyTypeChecking(deps: PolicyStatusDeps): PolicyStatusController | undefined {
  const group = admissionRegistrationGroup(deps.domain);
  const store = deps.stores.get(`${group}/validatingadmissionpolicies`);
  const cache = deps.caches.get(group, 'validatingadmissionpolicies');
  if (!store || !cache) return undefined;
  const schemaOf = kindSchemaResolver(deps.scheme);
  const checker = new TypeChecker({
    kindFor: (resource) => deps.objects.kindFor(resource, ''),
    // The OpenAPI schema of a kind is a structural schema CEL derives its type from.
    schemaFor: (kind) => schemaOf(kind) as Schema | undefined,
  });
  const controller = new PolicyStatusController({
    checker,
    logger: deps.logger,
    writeStatus: async (policy, status) => {
      try {
        await store.mutate('', policy.metadata?.name ?? '', (current) => ({ ...current, status } as StoredObject), {
          preconditions: { resourceVersion: policy.metadata?.resourceVersion ?? '' },
        });
      } catch (e) {
        // Changed or gone since it was read: the cache reports the change, which is checked in turn.
        if ((e as { code?: number }).code === 409 || (e as { code?: number }).code === 404) return;
        throw e;
      }
    },
  });
  // The cache holds objects decoded and validated as policies, which makes the cast sound.
  cache.subscribe((type, obj) => {
    if (type !== 'DELETED') controller.observe(obj as unknown as ValidatingAdmissionPolicy);
  });
  void deps.caches.synced(group, 'validatingadmissionpolicies');
  return controller;
}
