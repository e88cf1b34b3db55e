// The validation rules of every kind, keyed `<group>/<Kind>` (core kinds as `/<Kind>`). The
// generic store looks a kind's rules up here and calls them with the decoded object.
import type { ApiDomain } from '../../api/domain.js';
import { rbacGroup } from '../../api/rbac/v1/register.js';
import type { StoredObject } from '../storage/interface.js';
import type { ValidationLookup } from './stores.js';
import { controllerRevisionValidation } from './apps/controller-revision-validation.js';
import { daemonSetValidation } from './apps/daemon-set-validation.js';
import { deploymentValidation } from './apps/deployment-validation.js';
import { replicaSetValidation } from './apps/replica-set-validation.js';
import { statefulSetValidation } from './apps/stateful-set-validation.js';
import { cronJobValidation } from './batch/cron-job-validation.js';
import { jobValidation } from './batch/job-validation.js';
import { configMapValidation } from './core/config-map-validation.js';
import { endpointsValidation } from './core/endpoints-validation.js';
import { eventValidation } from './core/event-validation.js';
import { eventsV1EventValidation } from './events/event-validation.js';
import { limitRangeValidation } from './core/limit-range-validation.js';
import { betaStorageClassAnnotation } from '../../api/core/v1/register.js';
import { persistentVolumeClaimValidation } from './core/persistent-volume-claim-validation.js';
import { persistentVolumeValidation } from './core/persistent-volume-validation.js';
import { namespaceValidation } from './core/namespace-validation.js';
import { nodeValidation } from './core/node-validation.js';
import { serviceValidation } from './core/service-validation.js';
import { podValidation } from './core/pod-validation.js';
import { ResourceNames } from './core/resource-names.js';
import { replicationControllerValidation } from './core/replication-controller-validation.js';
import { resourceQuotaValidation } from './core/resource-quota-validation.js';
import { secretValidation } from './core/secret-validation.js';
import { serviceAccountValidation } from './core/service-account-validation.js';
import { ingressClassValidation, ingressValidation } from './networking/ingress-validation.js';
import { networkPolicyValidation } from './networking/network-policy-validation.js';
import { podDisruptionBudgetValidation } from './policy/pod-disruption-budget-validation.js';
import { clusterRoleBindingValidation } from './rbac/cluster-role-binding-validation.js';
import { clusterRoleValidation } from './rbac/cluster-role-validation.js';
import { roleBindingValidation } from './rbac/role-binding-validation.js';
import { roleValidation } from './rbac/role-validation.js';
import { csiDriverValidation } from './storage/csi-driver-validation.js';
import { storageClassValidation } from './storage/storage-class-validation.js';
import { priorityClassValidation } from './scheduling/priority-class-validation.js';
import { runtimeClassValidation } from './node/runtime-class-validation.js';
import { leaseValidation } from './coordination/lease-validation.js';
import { endpointSliceValidation } from './discovery/endpoint-slice-validation.js';
import { mutatingWebhookConfigurationValidation, validatingWebhookConfigurationValidation } from './admissionregistration/webhook-configuration-validation.js';
import { admissionRegistrationGroup } from '../../api/admissionregistration/v1/register.js';
import { validatingAdmissionPolicyBindingValidation, validatingAdmissionPolicyValidation } from './admissionregistration/validating-admission-policy-validation.js';
import type { KindValidation } from './validation/kind-validation.js';
import { autoscalingGroup } from '../../api/autoscaling/v2/register.js';
import { horizontalPodAutoscalerV1Validation, horizontalPodAutoscalerValidation } from './autoscaling/horizontal-pod-autoscaler-validation.js';
import { certificatesGroup } from '../../api/certificates/v1/register.js';
import { certificateSigningRequestValidation } from './certificates/certificate-signing-request-validation.js';
import { nameIsDNSSubdomain } from './validation/names.js';
import { apiextensionsGroup } from '../../api/apiextensions/v1/register.js';
import { customResourceDefinitionValidation } from '../apiextensions/validation/definition.js';
import { standardFinalizers } from './validation/object-meta.js';
import { apiregistrationGroup } from '../../api/apiregistration/v1/register.js';
import { apiServiceValidation } from './apiregistration/api-service-validation.js';

/** Rules for kinds nobody registered: DNS subdomain names and nothing else. */
const noRules: KindValidation<StoredObject> = {
  name: nameIsDNSSubdomain,
  validate: () => [],
  validateUpdate: () => [],
};

/** What the server's flags decide about validation. */
export interface ValidationOptions {
  /** --allow-privileged: privileged containers pass; refused by cluster policy otherwise (upstream's default). */
  allowPrivileged?: boolean;
}

/** The rules of every kind, with group names and domain-derived names of `domain`. */
export function kindValidations(domain: ApiDomain, opts: ValidationOptions = {}): ValidationLookup {
  const registry = new Map<string, KindValidation<StoredObject>>();
  // The store only ever passes objects decoded and schema-checked as that kind, which is what
  // makes widening the parameter type sound.
  // A version that needs rules of its own (one converted from another's storage) is registered with it.
  const register = <T>(group: string, kind: string, validation: KindValidation<T>, version?: string): void => {
    registry.set(version ? `${group}/${version}/${kind}` : `${group}/${kind}`, validation as unknown as KindValidation<StoredObject>);
  };
  const rbac = rbacGroup(domain);
  const resourceNames = new ResourceNames(domain.keyDomain);
  const pods = { resourceNames, allowPrivileged: opts.allowPrivileged ?? false };
  register('', 'Namespace', namespaceValidation(standardFinalizers(domain.namespaceFinalizer)));
  register('', 'Pod', podValidation(pods));
  register('', 'ConfigMap', configMapValidation);
  register('', 'Secret', secretValidation(domain));
  register('', 'ServiceAccount', serviceAccountValidation);
  register('', 'LimitRange', limitRangeValidation(resourceNames));
  register('', 'ResourceQuota', resourceQuotaValidation(resourceNames));
  register('', 'Endpoints', endpointsValidation);
  register('', 'Event', eventValidation('orch-system'));
  register('', 'Node', nodeValidation);
  register('', 'Service', serviceValidation);
  register('', 'PersistentVolumeClaim', persistentVolumeClaimValidation(betaStorageClassAnnotation(domain)));
  register('', 'PersistentVolume', persistentVolumeValidation);
  register(domain.group('events'), 'Event', eventsV1EventValidation('orch-system'));
  register('', 'ReplicationController', replicationControllerValidation(pods));
  register('apps', 'StatefulSet', statefulSetValidation(pods));
  register('apps', 'Deployment', deploymentValidation(pods));
  register('apps', 'ReplicaSet', replicaSetValidation(pods));
  register('apps', 'DaemonSet', daemonSetValidation(pods));
  register('apps', 'ControllerRevision', controllerRevisionValidation);
  register('batch', 'Job', jobValidation(domain, pods));
  register('batch', 'CronJob', cronJobValidation(pods));
  register(certificatesGroup(domain), 'CertificateSigningRequest', certificateSigningRequestValidation(domain));
  register(rbac, 'ClusterRole', clusterRoleValidation);
  register(rbac, 'ClusterRoleBinding', clusterRoleBindingValidation(rbac));
  register(rbac, 'Role', roleValidation);
  register(rbac, 'RoleBinding', roleBindingValidation(rbac));
  register(domain.group('storage'), 'CSIDriver', csiDriverValidation);
  register(domain.group('networking'), 'IngressClass', ingressClassValidation);
  register(domain.group('networking'), 'Ingress', ingressValidation(domain));
  register(domain.group('networking'), 'NetworkPolicy', networkPolicyValidation);
  register('policy', 'PodDisruptionBudget', podDisruptionBudgetValidation);
  register(domain.group('storage'), 'StorageClass', storageClassValidation);
  register(domain.group('scheduling'), 'PriorityClass', priorityClassValidation);
  register(domain.group('node'), 'RuntimeClass', runtimeClassValidation(resourceNames));
  register(domain.group('coordination'), 'Lease', leaseValidation);
  register(domain.group('discovery'), 'EndpointSlice', endpointSliceValidation);
  register(apiregistrationGroup(domain), 'APIService', apiServiceValidation);
  register(admissionRegistrationGroup(domain), 'ValidatingWebhookConfiguration', validatingWebhookConfigurationValidation);
  register(admissionRegistrationGroup(domain), 'MutatingWebhookConfiguration', mutatingWebhookConfigurationValidation);
  register(apiextensionsGroup(domain), 'CustomResourceDefinition', customResourceDefinitionValidation(domain));
  register(admissionRegistrationGroup(domain), 'ValidatingAdmissionPolicy', validatingAdmissionPolicyValidation);
  register(admissionRegistrationGroup(domain), 'ValidatingAdmissionPolicyBinding', validatingAdmissionPolicyBindingValidation);
  register(autoscalingGroup, 'HorizontalPodAutoscaler', horizontalPodAutoscalerValidation(resourceNames));
  register(autoscalingGroup, 'HorizontalPodAutoscaler', horizontalPodAutoscalerV1Validation(domain, resourceNames), 'v1');
  return (group, kind, version) => (version ? registry.get(`${group}/${version}/${kind}`) : undefined) ?? registry.get(`${group}/${kind}`) ?? noRules;
}
