// The plug-ins compiled into the server, by upstream name. Each plug-in lives in its own folder
// under pkg/admission and exports its factory; this file only lists them.
import { alwaysAdmitFactory } from './admit/plugin.js';
import { alwaysPullImagesFactory } from './alwayspullimages/plugin.js';
import { limitPodHardAntiAffinityTopologyFactory } from './antiaffinity/plugin.js';
import { certificateApprovalFactory } from './certificates/approval.js';
import { certificateSigningFactory } from './certificates/signing.js';
import { certificateSubjectRestrictionFactory } from './certificates/subject-restriction.js';
import { defaultIngressClassFactory } from './defaultingressclass/plugin.js';
import { defaultStorageClassFactory } from './defaultstorageclass/plugin.js';
import { defaultTolerationSecondsFactory } from './defaulttolerationseconds/plugin.js';
import { alwaysDenyFactory } from './deny/plugin.js';
import { denyServiceExternalIPsFactory } from './denyserviceexternalips/plugin.js';
import { extendedResourceTolerationFactory } from './extendedresourcetoleration/plugin.js';
import { limitRangerFactory } from './limitranger/plugin.js';
import { namespaceAutoProvisionFactory } from './namespaceautoprovision/plugin.js';
import { namespaceExistsFactory } from './namespaceexists/plugin.js';
import { namespaceLifecycleFactory } from './namespacelifecycle/plugin.js';
import { nodeRestrictionFactory } from './noderestriction/plugin.js';
import { persistentVolumeClaimResizeFactory } from './persistentvolumeclaimresize/plugin.js';
import { podTolerationRestrictionFactory } from './podtolerationrestriction/plugin.js';
import { priorityFactory } from './priority/plugin.js';
import { PluginRegistry } from './registry.js';
import { resourceQuotaFactory } from './resourcequota/plugin.js';
import { runtimeClassFactory } from './runtimeclass/plugin.js';
import { securityContextDenyFactory } from './securitycontextdeny/plugin.js';
import { serviceAccountFactory } from './serviceaccount/plugin.js';
import { storageObjectInUseProtectionFactory } from './storageobjectinuseprotection/plugin.js';
import { taintNodesByConditionFactory } from './taintnodesbycondition/plugin.js';
import { mutatingAdmissionWebhookFactory } from './webhook/mutating.js';
import { validatingAdmissionWebhookFactory } from './webhook/validating.js';

/** A registry holding every built-in plug-in. */
export function builtinPlugins(): PluginRegistry {
  const reg = new PluginRegistry();
  reg.register('NamespaceLifecycle', namespaceLifecycleFactory);
  reg.register('LimitRanger', limitRangerFactory);
  reg.register('ServiceAccount', serviceAccountFactory);
  reg.register('NodeRestriction', nodeRestrictionFactory);
  reg.register('SecurityContextDeny', securityContextDenyFactory);
  reg.register('TaintNodesByCondition', taintNodesByConditionFactory);
  reg.register('Priority', priorityFactory);
  reg.register('DefaultTolerationSeconds', defaultTolerationSecondsFactory);
  reg.register('PodTolerationRestriction', podTolerationRestrictionFactory);
  reg.register('DefaultStorageClass', defaultStorageClassFactory);
  reg.register('StorageObjectInUseProtection', storageObjectInUseProtectionFactory);
  reg.register('RuntimeClass', runtimeClassFactory);
  reg.register('CertificateApproval', certificateApprovalFactory);
  reg.register('CertificateSigning', certificateSigningFactory);
  reg.register('CertificateSubjectRestriction', certificateSubjectRestrictionFactory);
  reg.register('MutatingAdmissionWebhook', mutatingAdmissionWebhookFactory);
  reg.register('ValidatingAdmissionWebhook', validatingAdmissionWebhookFactory);
  reg.register('ResourceQuota', resourceQuotaFactory);
  reg.register('AlwaysAdmit', alwaysAdmitFactory);
  reg.register('AlwaysDeny', alwaysDenyFactory);
  reg.register('AlwaysPullImages', alwaysPullImagesFactory);
  reg.register('DefaultIngressClass', defaultIngressClassFactory);
  reg.register('DenyServiceExternalIPs', denyServiceExternalIPsFactory);
  reg.register('ExtendedResourceToleration', extendedResourceTolerationFactory);
  reg.register('LimitPodHardAntiAffinityTopology', limitPodHardAntiAffinityTopologyFactory);
  reg.register('NamespaceAutoProvision', namespaceAutoProvisionFactory);
  reg.register('NamespaceExists', namespaceExistsFactory);
  reg.register('PersistentVolumeClaimResize', persistentVolumeClaimResizeFactory);
  return reg;
}
