// Starts the type checking of ValidatingAdmissionPolicies in the API server: the policies' cache
// feeds the status controller, which checks each policy against the served kinds' OpenAPI schemas
// (a custom resource's from its definition) and applies its status through the policies' store as
// upstream's controller does: a server-side apply of the status sub-resource by the manager
// validatingadmissionpolicy-status, forced, owning observedGeneration and typeChecking.
import type { ApiDomain } from '../../../api/domain.js';
import { admissionRegistrationGroup } from '../../../api/admissionregistration/v1/register.js';
import type { ValidatingAdmissionPolicy } from '../../../api/admissionregistration/v1/validating-admission-policy.js';
import type { ObjectInterfaces } from '../../../pkg/admission/interfaces.js';
import { PolicyStatusController } from '../../../pkg/admission/policy/validating/status-controller.js';
import { TypeChecker } from '../../../pkg/admission/policy/validating/type-checking.js';
import type { Schema } from '../../../pkg/cel/types.js';
import { RequestFieldManager } from '../../../pkg/endpoints/field-manager.js';
import { kindSchemaResolver } from '../../../pkg/endpoints/openapi/kind-schemas.js';
import type { CustomResourceRegistry } from '../../../pkg/apiextensions/custom-resource-registry.js';
import type { Logger } from '../../../pkg/log/logger.js';
import type { Store } from '../../../pkg/registry/generic/store.js';
import type { Scheme } from '../../../pkg/runtime/scheme.js';
import { StatusError } from '../../../pkg/runtime/errors.js';
import type { SharedCaches } from './caches.js';

/** Upstream's field manager of the type-checking status (the controller's name). */
const statusManager = 'validatingadmissionpolicy-status';

/** Ends a status write whose policy is gone or has a newer generation than the one checked. */
class NotChecked extends StatusError {
  constructor() {
    super(409, 'Conflict', 'the policy changed since it was type-checked');
  }
}

export interface PolicyStatusDeps {
  domain: ApiDomain;
  stores: ReadonlyMap<string, Store>;
  caches: SharedCaches;
  scheme: Scheme;
  objects: ObjectInterfaces;
  logger: Logger;
  /** The custom resources served, caught up with etcd before a policy is checked; undefined when CRDs are off. */
  customResources?: CustomResourceRegistry;
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
  const manager = new RequestFieldManager(store.info, 'status', statusManager);
  const controller = new PolicyStatusController({
    checker,
    logger: deps.logger,
    ...(deps.customResources ? { kindsCurrent: () => deps.customResources!.catchUp() } : {}),
    applyStatus: async (policy, status) => {
      const name = policy.metadata?.name ?? '';
      const config = { apiVersion: store.info.apiVersion, kind: store.info.kind, metadata: { name }, status };
      try {
        await store.update('', name, async (current) => {
          // Gone, or changed since it was checked: the cache reports the change, which is checked in turn.
          if (!current || current.metadata.generation !== policy.metadata?.generation) throw new NotChecked();
          return manager.apply(current, structuredClone(config), true);
        }, { subresource: 'status' });
      } catch (e) {
        if (e instanceof NotChecked || (e as { code?: number }).code === 404) return;
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
