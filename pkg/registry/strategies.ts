// What individual kinds add to the generic strategy.
import { isDeepStrictEqual } from 'node:util';
import type { ApiDomain } from '../../api/domain.js';
import { formatTime } from '../../api/meta/v1/primitives.js';
import { SystemPriorityClasses } from '../../api/scheduling/v1/priority-class.js';
import { rbacGroup } from '../../api/rbac/v1/register.js';
import { newConflict, newForbidden } from '../runtime/errors.js';
import type { StoredObject } from '../storage/interface.js';
import type { StrategyOverrides } from './generic/strategy.js';
import { batchKeys } from '../../api/batch/v1/well-known.js';
import type { Node } from '../../api/core/v1/node.js';
import type { Service } from '../../api/core/v1/service.js';
import { syncPodCIDRs } from './core/node-validation.js';
import { dropTypeDependentFields, patchAllocatedValues } from './core/service/update-fields.js';
import { podStrategy } from './core/pod-strategy.js';
import { admissionRegistrationGroup } from '../../api/admissionregistration/v1/register.js';
import { MutatingWebhookConfiguration, ValidatingWebhookConfiguration } from '../../api/admissionregistration/v1/webhook-configuration.js';
import { webhookConfigurationStrategy } from './admissionregistration/webhook-configuration-strategy.js';
import { certificatesGroup } from '../../api/certificates/v1/register.js';
import { certificateSigningRequestStrategy } from './certificates/certificate-signing-request-strategy.js';
import { endpointSliceStrategy } from './discovery/endpoint-slice-strategy.js';
import { daemonSetStrategy } from './apps/daemon-set-strategy.js';
import { apiextensionsGroup } from '../../api/apiextensions/v1/register.js';
import { customResourceDefinitionStrategy } from '../apiextensions/registry/definition-strategy.js';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Namespaces the server makes at start, as upstream makes default and kube-*. */
export const systemNamespaces = ['default', 'orch-system', 'orch-public', 'orch-node-lease'];

/** Namespaces that may never be deleted (upstream's NamespaceLifecycle keeps default, kube-system, kube-public). */
const immortalNamespaces = new Set(['default', 'orch-system', 'orch-public']);

const namespaceGR = { group: '', resource: 'namespaces' };

interface NamespaceLike {
  spec?: { finalizers?: string[] };
  status?: { phase?: string };
}

const nsSpec = (o: StoredObject) => (o as NamespaceLike).spec;

interface PhaseStatus {
  phase?: string;
  lastPhaseTransitionTime?: string;
}

interface EventLike {
  involvedObject?: Record<string, string | undefined>;
  source?: { component?: string };
  reportingComponent?: string;
}

const involved = (o: StoredObject, f: string) => str((o as EventLike).involvedObject?.[f]);

/** Upstream's selectable fields of core events; `source` falls back to the reporting controller. */
const coreEventFields: Record<string, (o: StoredObject) => string> = {
  ...Object.fromEntries(['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']
    .map((f) => [`involvedObject.${f}`, (o: StoredObject) => involved(o, f)])),
  reason: (o) => str(o.reason),
  reportingComponent: (o) => str(o.reportingComponent),
  source: (o) => str((o as EventLike).source?.component) || str(o.reportingComponent),
  type: (o) => str(o.type),
};

/** The selectable fields of events/v1 Events: upstream's field label conversions, in events/v1 names. */
const eventsV1EventFields: Record<string, (o: StoredObject) => string> = {
  ...Object.fromEntries(['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']
    .map((f) => [`regarding.${f}`, (o: StoredObject) => str((o.regarding as Record<string, unknown> | undefined)?.[f])])),
  reason: (o) => str(o.reason),
  reportingController: (o) => str(o.reportingController),
  type: (o) => str(o.type),
};

/** What kinds add to the generic strategy, keyed `<group>/<Kind>` (core kinds as `/<Kind>`). */
export const strategyOverrides = (domain: ApiDomain): ReadonlyMap<string, StrategyOverrides> => new Map<string, StrategyOverrides>([
  ['/Namespace', {
    // The namespace controller empties a namespace before this finalizer goes (upstream: kubernetes).
    prepareForCreate: (obj) => {
      obj.status = { phase: 'Active' };
      obj.spec = { ...(nsSpec(obj) ?? {}), finalizers: [domain.namespaceFinalizer] };
    },
    // spec.finalizers changes only through /finalize.
    prepareForUpdate: (obj, old) => {
      obj.spec = { ...(nsSpec(obj) ?? {}), finalizers: nsSpec(old)?.finalizers ?? [] };
    },
    pendingFinalizers: (obj) => (nsSpec(obj)?.finalizers ?? []).length > 0,
    prepareForDeletion: (obj) => {
      obj.status = { ...((obj as NamespaceLike).status ?? {}), phase: 'Terminating' };
    },
    validateDeletion: (obj) => {
      const name = obj.metadata.name ?? '';
      if (immortalNamespaces.has(name)) throw newForbidden(namespaceGR, name, 'this namespace may not be deleted');
      if (obj.metadata.deletionTimestamp && (nsSpec(obj)?.finalizers ?? []).length > 0) {
        throw newConflict(namespaceGR, name, 'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.');
      }
    },
    returnDeletedObject: true,
    selectableFields: { 'status.phase': (o) => str((o as NamespaceLike).status?.phase) },
  }],
  // A Deployment's annotations (rollback requests, change causes) also start a new generation.
  ['apps/Deployment', {
    prepareForUpdate: (obj, old) => {
      const sameGeneration = obj.metadata.generation === old.metadata.generation;
      if (sameGeneration && !isDeepStrictEqual(obj.metadata.annotations ?? {}, old.metadata.annotations ?? {})) {
        obj.metadata.generation = (old.metadata.generation ?? 1) + 1;
      }
    },
  }],
  ['apps/DaemonSet', daemonSetStrategy],
  ['/Pod', podStrategy],
  ['/Secret', { selectableFields: { type: (o) => str(o.type) } }],
  // Node agents register their node with its status in one create, as upstream allows.
  ['/Node', {
    statusOnCreate: true,
    prepareForCreate: (obj) => syncPodCIDRs(obj as Node),
    prepareForUpdate: (obj) => syncPodCIDRs(obj as Node),
    selectableFields: { 'spec.unschedulable': (o) => String((o as Node).spec?.unschedulable ?? false) },
  }],
  ['/Service', {
    prepareForUpdate: (obj, old) => {
      patchAllocatedValues(obj as Service, old as Service);
      dropTypeDependentFields(obj as Service, old as Service);
    },
  }],
  ['/Event', { selectableFields: coreEventFields }],
  [`${domain.group('events')}/Event`, { selectableFields: eventsV1EventFields }],
  // Upstream clears a new claim's or volume's status; defaulting then shows phase Pending.
  ['/PersistentVolumeClaim', { prepareForCreate: (obj) => { obj.status = { phase: 'Pending' }; } }],
  ['/PersistentVolume', {
    prepareForCreate: (obj) => { obj.status = { phase: 'Pending', lastPhaseTransitionTime: formatTime(new Date()) }; },
    // The transition time follows the phase unless the writer sets a new one itself.
    prepareForStatusUpdate: (obj, old) => {
      const now = (obj.status ?? {}) as PhaseStatus;
      const before = (old.status ?? {}) as PhaseStatus;
      if (now.phase === before.phase && now.lastPhaseTransitionTime === undefined) {
        if (before.lastPhaseTransitionTime !== undefined) obj.status = { ...now, lastPhaseTransitionTime: before.lastPhaseTransitionTime };
      } else if (now.phase !== before.phase && (now.lastPhaseTransitionTime === undefined || now.lastPhaseTransitionTime === before.lastPhaseTransitionTime)) {
        obj.status = { ...now, lastPhaseTransitionTime: formatTime(new Date()) };
      }
    },
  }],
  // Upstream's job strategy: without manualSelector the pods get the job's name and uid as labels
  // and the selector selects the uid (a wrong selector given is left for validation to refuse).
  ['batch/Job', {
    prepareForCreate: (obj) => generateJobSelector(obj, domain),
    selectableFields: { 'status.successful': (o) => String((o as { status?: { succeeded?: number } }).status?.succeeded ?? 0) },
  }],
  ['/ReplicationController', { selectableFields: { 'status.replicas': (o) => String((o as { status?: { replicas?: number } }).status?.replicas ?? 0) } }],
  ['/ResourceQuota', { returnDeletedObject: true }],
  [`${domain.group('discovery')}/EndpointSlice`, endpointSliceStrategy],
  [`${domain.group('storage')}/CSIDriver`, { returnDeletedObject: true }],
  // The built-in priority classes are recreated at start anyway; upstream refuses to delete them.
  [`${domain.group('scheduling')}/PriorityClass`, {
    validateDeletion: (obj) => {
      const name = obj.metadata.name ?? '';
      if (SystemPriorityClasses.some((c) => c.name === name)) {
        throw newForbidden({ group: domain.group('scheduling'), resource: 'priorityclasses' }, name, 'this is a system priority class and cannot be deleted');
      }
    },
  }],
  [`${admissionRegistrationGroup(domain)}/ValidatingWebhookConfiguration`, webhookConfigurationStrategy(ValidatingWebhookConfiguration)],
  [`${admissionRegistrationGroup(domain)}/MutatingWebhookConfiguration`, webhookConfigurationStrategy(MutatingWebhookConfiguration)],
  // Upstream's policy strategies refuse an update that does not say which version it replaces.
  [`${admissionRegistrationGroup(domain)}/ValidatingAdmissionPolicy`, { requireResourceVersion: true }],
  [`${admissionRegistrationGroup(domain)}/ValidatingAdmissionPolicyBinding`, { requireResourceVersion: true }],
  // A PUT of a missing object creates it for the kinds upstream allows it (the others answer 404).
  ['/LimitRange', { allowCreateOnUpdate: true }],
  ...['Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding'].map((kind): [string, StrategyOverrides] => [`${rbacGroup(domain)}/${kind}`, { allowCreateOnUpdate: true }]),
  [`${apiextensionsGroup(domain)}/CustomResourceDefinition`, customResourceDefinitionStrategy(domain)],
  // Signers watch only their own requests with fieldSelector=spec.signerName.
  [`${certificatesGroup(domain)}/CertificateSigningRequest`, {
    ...certificateSigningRequestStrategy,
    selectableFields: { 'spec.signerName': (o) => str((o as { spec?: { signerName?: unknown } }).spec?.signerName) },
  }],
]);

type Labels = Record<string, string>;
interface JobLike {
  spec?: { manualSelector?: boolean; selector?: { matchLabels?: Labels }; template?: { metadata?: { labels?: Labels } } };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function generateJobSelector(obj: StoredObject, domain: ApiDomain): void {
  const spec = (obj as JobLike).spec;
  if (!isRecord(spec) || spec.manualSelector === true || !isRecord(spec.template)) return;
  const names = batchKeys(domain);
  const uid = obj.metadata.uid ?? '';
  const name = obj.metadata.name ?? '';
  const template = spec.template;
  template.metadata = isRecord(template.metadata) ? template.metadata : {};
  const labels: Labels = isRecord(template.metadata.labels) ? template.metadata.labels : {};
  template.metadata.labels = labels;
  for (const key of [names.legacyJobName, names.jobName]) if (!(key in labels)) labels[key] = name;
  for (const key of [names.legacyControllerUid, names.controllerUid]) if (!(key in labels)) labels[key] = uid;
  spec.selector = isRecord(spec.selector) ? spec.selector : {};
  spec.selector.matchLabels = isRecord(spec.selector.matchLabels) ? spec.selector.matchLabels : {};
  if (!(names.controllerUid in spec.selector.matchLabels)) spec.selector.matchLabels[names.controllerUid] = uid;
}
